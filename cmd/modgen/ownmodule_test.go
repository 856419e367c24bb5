package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/modkit/modkit/internal/modproxytest"
)

// readmeSection is the README heading whose first sh block the ownmodule
// scripts run as readme.sh.
const readmeSection = "## A mod in its own module"

// readmeCommands returns the first sh block under readmeSection.
func readmeCommands(t *testing.T, readme string) string {
	t.Helper()
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n"+readmeSection+"\n")
	if !ok {
		t.Fatalf("%s has no section %q", readme, readmeSection)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	_, block, ok := strings.Cut(section, "\n```sh\n")
	if !ok {
		t.Fatalf("%s: section %q has no sh block", readme, readmeSection)
	}
	block, _, ok = strings.Cut(block, "\n```\n")
	if !ok {
		t.Fatalf("%s: section %q: unterminated sh block", readme, readmeSection)
	}
	return block + "\n"
}

// TestOwnModule runs testdata/ownmodule/*.txtar: a fresh module in $WORK,
// set up by the README's commands as written (readme.sh), modkit replaced
// by this checkout. Like CI, it runs with GOFLAGS=-mod=readonly; modkit's
// dependencies come from the module cache.
func TestOwnModule(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the README's commands are for a POSIX shell")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	commands := readmeCommands(t, filepath.Join(root, "README.md"))
	// The scripts' proxy serves only what the module cache holds. go mod
	// tidy in a module that requires modkit reads modules of modkit's
	// graph that building modkit does not download: a tidy of such a
	// module here, with this environment's proxy, fetches them once (and
	// nothing when they are in the cache).
	fillModuleCache(t, root)
	goEnv := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		goEnv[k] = strings.TrimSpace(string(out))
	}
	proxy := modproxytest.Unpublished(t)
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/ownmodule",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"toolpath": toolPath},
		Setup: func(env *testscript.Env) error {
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			env.Setenv("GOFLAGS", "-mod=readonly")
			// A proxy where modkit is not published: it refuses modkit
			// (403), so the README's commands must not look it up, and
			// serves modkit's dependencies from the module cache: no
			// network, no checksum database (go.sum is written from the
			// cache).
			env.Setenv("GOPROXY", proxy)
			env.Setenv("GOSUMDB", "off")
			env.Setenv("GOTOOLCHAIN", "local")
			env.Setenv("MODKIT", root)
			env.Setenv("MODKIT_CACHE", filepath.Join(env.WorkDir, "cache"))
			return os.WriteFile(filepath.Join(env.WorkDir, "readme.sh"), []byte("set -ex\n"+commands), 0o644)
		},
	})
}

// fillModuleCache runs, in a new module, the README's go mod edit and go
// mod tidy with this environment's proxy, so that the module cache holds
// what they read.
func fillModuleCache(t *testing.T, root string) {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"mod", "init", "example.com/fill"},
		{"mod", "edit", "-require", modproxytest.ModkitPath + "@v0.0.0-00010101000000-000000000000", "-replace", modproxytest.ModkitPath + "=" + root,
			"-tool", modproxytest.ModkitPath + "/cmd/modgen", "-tool", modproxytest.ModkitPath + "/cmd/modhost"},
		{"mod", "tidy"},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s (fills the module cache the scripts read): %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// toolPath sets VAR to the path of the executable go tool runs for NAME in
// the current directory: toolpath NAME VAR. A script runs a tool many times
// through it, building it once and checking its staleness once, where each
// go tool NAME checks it again (about a second of CPU).
func toolPath(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: toolpath NAME VAR")
	}
	cmd := exec.Command("go", "tool", "-n", args[0])
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = environ(ts)
	out, err := cmd.Output()
	if err != nil {
		ts.Fatalf("go tool -n %s: %v", args[0], err)
	}
	path := strings.TrimSpace(string(out))
	if path == "" || strings.Contains(path, "\n") {
		ts.Fatalf("go tool -n %s: got %q, want the path of one executable", args[0], out)
	}
	ts.Setenv(args[1], path)
}

// environ returns the script's environment as the go command needs it.
func environ(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT", "GOFLAGS", "GOPROXY", "GOSUMDB", "GOTOOLCHAIN"} {
		env = append(env, fmt.Sprintf("%s=%s", k, ts.Getenv(k)))
	}
	return env
}

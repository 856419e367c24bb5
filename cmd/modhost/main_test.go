package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the scripts' golden files")

// cacheDir is shared by every script, with the other packages' tests and
// across runs: its keys hash the mods' sources, so a mod is built when it
// changed and otherwise never. It is $MODKIT_CACHE of the test process, so
// that tests calling run in-process use it and may run in parallel.
var cacheDir string

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) != "modhost" {
		testenv.LeanLinks() // the mods the tests build
		var err error
		if cacheDir, err = testenv.ModCache(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Setenv("MODKIT_CACHE", cacheDir)
	}
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"modhost": func() int { return run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr) },
	}))
}

func crashyDir(t *testing.T) string {
	dir, err := filepath.Abs("../../host/testdata/mods/crashy")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	mods := crashyDir(t)
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"call", "crashy_echo", `{"text":"x"}`}, exitOK},
		{[]string{"call", "crashy_echo", `{"text":5}`}, exitFailed},
		{[]string{"call", "crashy_echo", `{"text":`}, exitFailed},
		{[]string{"call", "crashy_fail"}, exitFailed},
		{[]string{"call", "crashy_nope"}, exitUsage},
		{[]string{"--agent", "echoer", "call", "crashy_fail"}, exitUsage},
		{[]string{"call"}, exitUsage},
		{[]string{"call", "--bogus", "crashy_echo"}, exitUsage},
		{[]string{"list", "extra"}, exitUsage},
		{[]string{"command", "crashy.hello"}, exitOK},
		{[]string{"command", "crashy.refused"}, exitFailed},
		{[]string{"command", "crashy.nope"}, exitUsage},
		{[]string{"nope"}, exitUsage},
		{[]string{"--mods", "/nonexistent/mods", "list"}, exitFailed},
	}
	for _, tt := range tests {
		var stdout, stderr strings.Builder
		// A later --mods wins over this one.
		got := run(context.Background(), append([]string{"--mods", mods}, tt.args...), strings.NewReader(""), &stdout, &stderr)
		if got != tt.want {
			t.Errorf("modhost %s: got exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(tt.args, " "), got, tt.want, stdout.String(), stderr.String())
		}
	}
}

// TestInterruptExits130 runs modhost as a process, interrupts a call, and
// checks that the tool saw the cancellation and modhost exited 130.
func TestInterruptExits130(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "modhost")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	started, seen := filepath.Join(dir, "started"), filepath.Join(dir, "seen")
	// The markers are in the workspace, where crashy_wait may write.
	cmd := exec.Command(bin, "--workspace", dir, "call", "crashy_wait", `{"started":"`+started+`","marker":"`+seen+`"}`)
	cmd.Env = append(os.Environ(), "MODHOST_MODS="+crashyDir(t), "MODKIT_CACHE="+cacheDir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor(t, started)
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitCancelled {
		t.Fatalf("got %v, want exit status %d; stderr:\n%s", err, exitCancelled, stderr.String())
	}
	waitFor(t, seen)
}

// waitFor waits for a file to exist: generously, as the first call may
// build its mod.
func waitFor(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s does not exist after 3 minutes", filepath.Base(path))
}

// landlockCondition answers [landlockN]: whether the kernel offers
// Landlock ABI N or later; and [seccomp]: whether it accepts the seccomp
// filter.
func landlockCondition(cond string) (bool, error) {
	if cond == "seccomp" {
		return sandbox.SeccompSupported() == nil, nil
	}
	v, ok := strings.CutPrefix(cond, "landlock")
	if !ok {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return false, fmt.Errorf("condition %q: want landlockN, N a Landlock ABI", cond)
	}
	return sandbox.ABI() >= n, nil
}

func TestScripts(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	goEnv := map[string]string{}
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if i < len(lines) {
			goEnv[k] = lines[i]
		}
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitfile": waitFile,
		},
		Condition: landlockCondition,
		Setup: func(e *testscript.Env) error {
			for k, v := range goEnv {
				e.Setenv(k, v)
			}
			e.Setenv("GOFLAGS", os.Getenv("GOFLAGS"))
			e.Setenv("GOPROXY", "off")
			e.Setenv("GOTOOLCHAIN", "local")
			e.Setenv("MODKIT_CACHE", cacheDir)
			e.Setenv("CACHE", cacheDir)
			e.Setenv("ROOT", root)
			e.Setenv("CRASHY", filepath.Join(root, "host", "testdata", "mods", "crashy"))
			e.Setenv("RESEARCH", filepath.Join(root, "examples", "research"))
			e.Setenv("CONFORMANCE", filepath.Join(root, "internal", "mcpbridge", "testdata", "conformance"))
			e.Setenv("ASKING", filepath.Join(root, "host", "testdata", "mods", "asking"))
			e.Setenv("WHOAMI", filepath.Join(root, "host", "testdata", "mods", "whoami"))
			e.Setenv("MODHOST_MODS", filepath.Join(root, "host", "testdata", "mods", "crashy"))
			e.Setenv("GOPATHENV", e.Getenv("PATH"))
			e.Setenv("NOGOPATH", withoutGo(e.Getenv("PATH")))
			return nil
		},
	})
}

// withoutGo returns the list of directories path without those holding a
// go command, for a script that runs as a host with no go command would.
func withoutGo(path string) string {
	var keep []string
	for _, dir := range filepath.SplitList(path) {
		if _, err := os.Stat(filepath.Join(dir, "go")); err != nil {
			keep = append(keep, dir)
		}
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// waitFile waits up to ten seconds for a file to exist: waitfile FILE.
func waitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile FILE")
	}
	path := ts.MkAbs(args[0])
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	ts.Fatalf("%s does not exist after 10s", args[0])
}

// TestCommandHelp checks that every command's --help, and modhost help
// COMMAND, print that command's own synopsis and flags, with no mods to
// load.
func TestCommandHelp(t *testing.T) {
	t.Parallel()
	wantFlags := map[string][]string{
		"list":    {"-json"},
		"inspect": {"-json", "-markdown"},
		"call":    {"-json", "-yes", "-timeout duration", "-session string", "-audit-log FILE", "-audit-arguments", "-replica string"},
		"command": {"-session string", "-audit-log FILE", "-audit-arguments", "-replica string"},
		"slash":   {"-session string"},
		"mcp":     {"-http host:port", "-session-timeout duration", "-max-sessions int", "-audit-log FILE", "-rate-limit N/s"},
		"dev":     {"-addr string", "-open"},
		"get":     {"-yes"},
		"update":  {"-yes"},
		"remove":  {},
		"verify":  {},
		"cache":   {"-json"},
		"build":   {"-o directory", "-goos os", "-goarch arch"},
		"sandbox": {"-json"},
		"read":    {"-out FILE", "-session string"},
		"prompt":  {"-answer KEY=VALUE", "-session string"},
	}
	for name := range subcommands {
		flags, ok := wantFlags[name]
		if !ok {
			t.Errorf("command %s: no flags listed in this test", name)
		}
		if commandDocs[name].summary == "" {
			t.Errorf("command %s: no help text in commandDocs", name)
		}
		for _, args := range [][]string{{"--mods", "/nonexistent", name, "--help"}, {"help", name}} {
			var stdout, stderr strings.Builder
			if got := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); got != exitOK {
				t.Errorf("modhost %s: got exit %d, want 0; stderr: %s", strings.Join(args, " "), got, stderr.String())
			}
			out := stdout.String()
			if want := "usage: modhost [GLOBAL FLAGS] " + name; !strings.HasPrefix(out, want+" ") && !strings.HasPrefix(out, want+"\n") {
				t.Errorf("modhost %s: got %q, want it to start with %q", strings.Join(args, " "), firstLine(out), want)
			}
			for _, f := range flags {
				if !strings.Contains(out, "\n  "+f+"\n") {
					t.Errorf("modhost %s: got no flag %q in:\n%s", strings.Join(args, " "), f, out)
				}
			}
		}
	}
}

package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "update testscript files from actual output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"modgen": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar. Each script is a module that
// replaces github.com/modkit/modkit with this repository: its go.mod says
// MODKIT_ROOT where the path goes.
func TestScripts(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	goEnv := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		goEnv[k] = strings.TrimSpace(string(out))
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			env.Setenv("GOPROXY", "off")
			env.Setenv("GOFLAGS", "-mod=mod")
			gomod := filepath.Join(env.WorkDir, "go.mod")
			data, err := os.ReadFile(gomod)
			if err != nil {
				return nil // scripts without a module
			}
			data = []byte(strings.ReplaceAll(string(data), "MODKIT_ROOT", root))
			if err := os.WriteFile(gomod, data, 0o644); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(env.WorkDir, "go.sum"), sum, 0o644)
		},
	})
}

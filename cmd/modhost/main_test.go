package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the scripts' golden files")

// cacheDir is shared by every script, so each mod is built once per run.
var cacheDir string

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"modhost": func() { os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cacheDir = t.TempDir()
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
		Setup: func(e *testscript.Env) error {
			for k, v := range goEnv {
				e.Setenv(k, v)
			}
			e.Setenv("GOFLAGS", "-mod=mod")
			e.Setenv("GOPROXY", "off")
			e.Setenv("GOTOOLCHAIN", "local")
			e.Setenv("MODKIT_CACHE", cacheDir)
			e.Setenv("ROOT", root)
			e.Setenv("CRASHY", filepath.Join(root, "host", "testdata", "mods", "crashy"))
			e.Setenv("RESEARCH", filepath.Join(root, "examples", "research"))
			e.Setenv("MODHOST_MODS", filepath.Join(root, "host", "testdata", "mods", "crashy"))
			return nil
		},
	})
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

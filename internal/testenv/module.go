package testenv

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// ModulePath is the module path of the module [ModuleDir] makes.
const ModulePath = "example.com/modkittest"

// ModuleDir returns a temporary directory holding a Go module, ModulePath,
// that requires this checkout of modkit, so a test can write mods into it
// and build them without writing into the source tree. It requires what
// modkit requires, with modkit's go.sum, so builds need no network.
func ModuleDir(t testing.TB) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	gomod = moduleLine.ReplaceAll(gomod, []byte("module "+ModulePath))
	gomod = append(gomod, []byte("\nrequire github.com/modkit/modkit v0.0.0\n\nreplace github.com/modkit/modkit => "+root+"\n")...)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), gomod, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var moduleLine = regexp.MustCompile(`(?m)^module .*$`)

// Root returns the root directory of the modkit checkout the test runs
// in: the nearest parent of the working directory whose go.mod declares
// module github.com/modkit/modkit.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(data, []byte("module github.com/modkit/modkit\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of github.com/modkit/modkit above the working directory")
		}
		dir = parent
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInitRefuses(t *testing.T) {
	t.Parallel()
	taken := t.TempDir()
	os.WriteFile(filepath.Join(taken, "main.go"), []byte("package main\n"), 0o644)
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"Go files already", []string{"init", taken}, 1, "already holds Go files (main.go); init writes a new mod into a directory without any"},
		{"no name", []string{"init", filepath.Join(t.TempDir(), "123")}, 1, `cannot make a package name of "123"`},
		{"two dirs", []string{"init", "a", "b"}, 2, "init takes at most one directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != tt.code || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("got exit %d, stderr %q; want exit %d and %q", code, stderr.String(), tt.code, tt.want)
			}
		})
	}
}

func TestInitNamesTheMod(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "My-Tasks2")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	src, err := os.ReadFile(filepath.Join(dir, "mytasks2.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"package mytasks2\n", `ID:          "mytasks2"`, `Name:        "mytasks2_greet"`, "//go:generate go tool modgen\n"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("mytasks2.go lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "mytasks2_test.go")); err != nil {
		t.Error(err)
	}
}

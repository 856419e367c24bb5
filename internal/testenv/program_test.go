package testenv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/modkit/modkit/internal/modbuild"
)

// The key of a cached program changes with every file a build could read,
// and not with tests, testdata or the git directory.
func TestSourceKey(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module github.com/modkit/modkit\n")
	write("host/host.go", "package host\n")
	write("internal/devserver/assets/app.js", "1")
	key := func() string {
		t.Helper()
		k, err := sourceKey(root)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	last := key()
	for _, tt := range []struct {
		name, file, data string
		changes          bool
	}{
		{"a source file", "host/host.go", "package host // 2\n", true},
		{"an embedded asset", "internal/devserver/assets/app.js", "2", true},
		{"go.mod", "go.mod", "module github.com/modkit/modkit\n\ngo 1.26\n", true},
		{"a new package", "host/more/more.go", "package more\n", true},
		{"a test file", "host/host_test.go", "package host\n", false},
		{"testdata", "host/testdata/mods/m/m.go", "package m\n", false},
		{"the git directory", ".git/HEAD", "ref: refs/heads/x\n", false},
	} {
		write(tt.file, tt.data)
		k := key()
		if changed := k != last; changed != tt.changes {
			t.Errorf("%s: key changed %v, want %v", tt.name, changed, tt.changes)
		}
		last = k
	}
}

// A program is built once and then found in the cache, by this process
// and, through the cache, by the next.
func TestProgram(t *testing.T) {
	t.Parallel()
	const pkg = "github.com/modkit/modkit/bench/internal/bare/bareplugin"
	first := Program(t, pkg)
	fi, err := os.Stat(first)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o100 == 0 {
		t.Fatalf("Program(%s): got %s (%v, %v), want an executable file", pkg, first, fi, err)
	}
	if got := Program(t, pkg); got != first {
		t.Errorf("asked again: got %s, want %s", got, first)
	}
	if got, want := filepath.Base(first), "bareplugin"+modbuild.ExeSuffix; got != want {
		t.Errorf("got name %s, want %s", got, want)
	}
}

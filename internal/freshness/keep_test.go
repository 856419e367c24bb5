//go:build linux || darwin

package freshness

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/filestamp"
)

// A new process takes DirIn's answer from the cache while the directory
// and its files are as they were, and computes it again after any edit,
// even one that keeps a file's size and puts its modification time back.
func TestDirInKeepsItsAnswerAcrossProcesses(t *testing.T) {
	defer func(s time.Duration) { settle = s }(settle)
	settle = 0
	root := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a := filepath.Join(dir, "a.go")
	writeFile(t, a, "package p\n\nconst A = 1\n")
	// check asks as a new process would, and compares with Dir's answer
	// computed from the files.
	check := func(what string) string {
		t.Helper()
		dirCache.Clear()
		got, err := DirIn(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		dirCache.Clear()
		want, err := Dir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: DirIn = %s, want %s", what, got, want)
		}
		return got
	}
	check("first")
	check("nothing changed")

	// The kept answer is what a new process takes.
	var kept keptAnswer
	fresh := filepath.Join(root, "fresh")
	if !filestamp.Load(fresh, dir, &kept) {
		t.Fatal("no answer kept")
	}
	planted := kept
	planted.Hash = "sha256:planted"
	filestamp.Store(fresh, dir, &planted)
	dirCache.Clear()
	if got, _ := DirIn(root, dir); got != planted.Hash {
		t.Fatalf("DirIn = %s with a kept answer whose print holds, want the kept answer", got)
	}
	filestamp.Store(fresh, dir, &kept)

	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	writeFile(t, a, "package p\n\nconst A = 2\n")
	os.Chtimes(a, fi.ModTime(), fi.ModTime())
	check("a file rewritten, same size, modification time put back")
	writeFile(t, filepath.Join(dir, "b.go"), "package p\n")
	check("a file added")
	os.Remove(filepath.Join(dir, "b.go"))
	check("a file removed")
	writeFile(t, filepath.Join(dir, "icon.png"), "png")
	check("an image added")
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

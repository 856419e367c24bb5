package freshness_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/freshness"
)

// writeAt writes a Go file into dir with the given content and times.
func writeAt(t *testing.T, dir, name, content string, mod time.Time) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

func dirHash(t *testing.T, dir string) string {
	t.Helper()
	h, err := freshness.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestDirCache(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	const a, b = "package p\nconst A = 1\n", "package p\nconst A = 2\n" // same size
	tests := []struct {
		name string
		// change rewrites the file after a first Dir; same reports that
		// the second Dir answers the first hash.
		change func(t *testing.T, dir string)
		same   bool
	}{
		{"unchanged file: the answer is kept", func(*testing.T, string) {}, true},
		{"same size and time: the kept answer is used, unread", func(t *testing.T, dir string) {
			writeAt(t, dir, "p.go", b, old)
		}, true},
		{"new time: read again", func(t *testing.T, dir string) {
			writeAt(t, dir, "p.go", b, old.Add(time.Second))
		}, false},
		{"new size: read again", func(t *testing.T, dir string) {
			writeAt(t, dir, "p.go", b+"\n", old)
		}, false},
		{"new file: read again", func(t *testing.T, dir string) {
			writeAt(t, dir, "q.go", "package p\n", old)
		}, false},
		{"removed file: read again", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "z.go")); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeAt(t, dir, "p.go", a, old)
			writeAt(t, dir, "z.go", "package p\n", old)
			first := dirHash(t, dir)
			tt.change(t, dir)
			if got := dirHash(t, dir); (got == first) != tt.same {
				t.Errorf("got hash %s after %s, first %s; want same %v", got, tt.name, first, tt.same)
			}
		})
	}
}

// A file modified just now is read again at every check: a second write
// within the timestamp granularity keeps its time.
func TestDirRereadsRecentFiles(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	writeAt(t, dir, "p.go", "package p\nconst A = 1\n", now)
	first := dirHash(t, dir)
	writeAt(t, dir, "p.go", "package p\nconst A = 2\n", now)
	if got := dirHash(t, dir); got == first {
		t.Errorf("got the first hash %s after a rewrite within the same time, want a new one", got)
	}
}

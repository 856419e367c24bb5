package modlock

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/dirhash"
)

// A copy unused for an hour is marked used (its directory's time) under its
// lock, so the build cache's trim keeps it; one used lately is not written.
func TestCopyOfMarksUsed(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module example.com/a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sum, err := dirhash.HashDir(src, "example.com/a@v1.0.0", dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	e := Entry{Module: "example.com/a", Version: "v1.0.0", Zip: sum}
	root := t.TempDir()
	target, err := copyOf(e, src, root, "example.com/a@v1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		age    time.Duration
		marked bool
	}{
		{"unused for days", 10 * 24 * time.Hour, true},
		{"used lately", 30 * time.Minute, false},
	} {
		at := time.Now().Add(-tt.age)
		if err := os.Chtimes(target, at, at); err != nil {
			t.Fatal(err)
		}
		if got, err := copyOf(e, src, root, "example.com/a@v1.0.0"); err != nil || got != target {
			t.Fatalf("%s: got %q, %v, want %q", tt.name, got, err, target)
		}
		fi, err := os.Stat(target)
		if err != nil {
			t.Fatal(err)
		}
		if marked := !fi.ModTime().Equal(at); marked != tt.marked {
			t.Errorf("%s: got marked %v (modified %v), want %v", tt.name, marked, fi.ModTime(), tt.marked)
		}
	}
	if _, err := os.Stat(target + ".lock"); err == nil {
		t.Error("the copy's lock is still held")
	}
}

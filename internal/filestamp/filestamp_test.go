//go:build linux || darwin

package filestamp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func stampOf(t *testing.T, path string) string {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	id, _, ok := Of(fi)
	if !ok {
		t.Fatal("no stamp on a system that has one")
	}
	return id
}

// A write of the same size, with the old modification time put back, still
// changes the stamp: its change time moved.
func TestOfFollowsAWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.go")
	if err := os.WriteFile(path, []byte("package a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Lstat(path)
	before := stampOf(t, path)
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(path, []byte("package b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if after := stampOf(t, path); after == before {
		t.Errorf("stamp %q unchanged by a write", after)
	}
	if again := stampOf(t, path); again != stampOf(t, path) {
		t.Errorf("two stamps of an unchanged file differ: %q", again)
	}
}

type answer struct{ Print, Hash string }

func TestStoreLoad(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "fresh")
	want := answer{"p", "h"}
	Store(dir, "/some/mod", &want)
	var got answer
	if !Load(dir, "/some/mod", &got) || got != want {
		t.Fatalf("Load = %+v, want %+v", got, want)
	}
	if Load(dir, "/another/mod", &got) {
		t.Error("Load found an answer never stored")
	}
	// A folder others may write is not trusted.
	if err := os.Chmod(dir, 0o770); err != nil {
		t.Fatal(err)
	}
	if Load(dir, "/some/mod", &got) {
		t.Error("Load trusted a group-writable folder")
	}
}

// Nothing is stored in a cache that does not exist or others may write.
func TestStoreNeedsAPrivateCache(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(cache, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(cache, 0o777); err != nil {
		t.Fatal(err)
	}
	Store(filepath.Join(cache, "fresh"), "m", &answer{"p", "h"})
	if _, err := os.Stat(filepath.Join(cache, "fresh")); err == nil {
		t.Error("Store wrote into a cache anyone may write")
	}
}

//go:build linux || darwin

package modbuild

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// DigestIn answers what Digest answers: after each kind of edit, an edit
// that keeps the file's size and puts its modification time back too, it
// digests the files again; while nothing changed it takes the stored
// digest without reading them.
func TestDigestInFollowsEveryEdit(t *testing.T) {
	defer func(s time.Duration) { settle = s }(settle)
	settle = 0
	tmp := t.TempDir()
	root := filepath.Join(tmp, "cache")
	if _, err := OpenCache(root); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(root, "rec", "m-0123456789abcdef01234567.json")
	dir := filepath.Join(tmp, "pkg")
	write(t, filepath.Join(dir, "a.go"), "package p\n\nconst A = 1\n")
	write(t, filepath.Join(dir, "b.go"), "package p\n")
	write(t, filepath.Join(dir, "static", "x.txt"), "x")
	inputs := []Input{{Dir: dir, Files: []string{"a.go", "b.go", "static/x.txt"}, Embed: []string{"static"}, Trees: []string{"static"}}}
	check := func(what string) {
		t.Helper()
		if got, want := DigestIn(root, rec, inputs), Digest(inputs); got != want {
			t.Errorf("%s: DigestIn = %s, want Digest's %s", what, got, want)
		}
		if got, want := DigestIn(root, rec, inputs), Digest(inputs); got != want {
			t.Errorf("%s, asked again: DigestIn = %s, want Digest's %s", what, got, want)
		}
	}
	check("first")

	// The stored digest is what a second ask returns.
	path := filepath.Join(root, "stamp", filepath.Base(rec))
	var s stamp
	data, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(data, &s) != nil {
		t.Fatalf("no stamp stored: %v", err)
	}
	planted := s
	planted.Digest = "planted"
	replaceJSON(t, path, planted)
	if got := DigestIn(root, rec, inputs); got != "planted" {
		t.Fatalf("DigestIn = %s with a stamp whose print holds, want the stamp's digest", got)
	}
	replaceJSON(t, path, s)

	a := filepath.Join(dir, "a.go")
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	write(t, a, "package p\n\nconst A = 2\n") // same size
	os.Chtimes(a, fi.ModTime(), fi.ModTime())
	check("a file rewritten, same size, modification time put back")

	write(t, filepath.Join(dir, "c.go"), "package p\n")
	check("a file added")
	os.Remove(filepath.Join(dir, "b.go"))
	check("a file removed")
	write(t, filepath.Join(dir, "static", "y.txt"), "y")
	check("an embedded file added")
	write(t, filepath.Join(dir, "static", "x.txt"), "z")
	check("an embedded file edited")
	inputs[0].Files = append(inputs[0].Files, "b.go")
	check("other inputs")
}

// A stamp is not kept while an input changed within settle: a second write
// in the same timestamp tick would not show.
func TestDigestInKeepsNoStampOfFreshFiles(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "cache")
	if _, err := OpenCache(root); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(root, "rec", "m-0123456789abcdef01234567.json")
	dir := filepath.Join(tmp, "pkg")
	write(t, filepath.Join(dir, "a.go"), "package p\n")
	inputs := []Input{{Dir: dir, Files: []string{"a.go"}}}
	if got, want := DigestIn(root, rec, inputs), Digest(inputs); got != want {
		t.Errorf("DigestIn = %s, want %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(root, "stamp", filepath.Base(rec))); err == nil {
		t.Errorf("a stamp was kept of files written just now")
	}
}

func replaceJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	replace(t, path, string(data))
}

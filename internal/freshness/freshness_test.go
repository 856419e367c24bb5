package freshness_test

import (
	"errors"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/manifest"
)

// The hash from a directory is the one modgen recorded for it.
func TestDirMatchesGenerated(t *testing.T) {
	for _, dir := range []string{"../../examples/research", "../../examples/dependencies"} {
		data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := freshness.Check(dir, m.ID, m.SourceHash); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := freshness.Check(dir, "tasks", "sha256:00")
	if !errors.Is(err, freshness.ErrNoGoFiles) || !strings.Contains(err.Error(), "not a Go package") {
		t.Errorf("empty dir: got %v, want a no-Go-files error", err)
	}
	write("tasks.go", "package tasks\n")
	write(freshness.GeneratedFile, "package tasks\n// generated\n")
	write("tasks_test.go", "package tasks\n")
	write("ignored.go", "//go:build ignore\n\npackage tasks\n")
	h, err := freshness.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := freshness.Files([]string{filepath.Join(dir, "tasks.go")}); h != want {
		t.Errorf("got %s, want %s (the hash of tasks.go alone)", h, want)
	}
	if err := freshness.Check(dir, "tasks", h); err != nil {
		t.Errorf("fresh: got %v", err)
	}
	write("tasks.go", "package tasks\n\nconst X = 1\n")
	err = freshness.Check(dir, "tasks", h)
	want := "mod tasks (" + dir + "): generated files are out of date; run go generate in " + dir
	if !errors.Is(err, freshness.ErrStale) || err.Error() != want {
		t.Errorf("stale: got %v, want %q", err, want)
	}
}

// The check of a test's working directory speaks only for the mod there.
func TestCheckWorkingDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("tasks.go", []byte("package tasks\n"), 0o644)
	fresh, err := freshness.Dir(".")
	if err != nil {
		t.Fatal(err)
	}
	embedded := func(id, hash string) []byte {
		return []byte(`{"id":"` + id + `","goPackage":"example.com/tasks","sourceHash":"` + hash + `"}`)
	}
	os.WriteFile(manifest.FileName, embedded("tasks", fresh), 0o644)
	if err := freshness.CheckWorkingDir(embedded("tasks", fresh)); err != nil {
		t.Errorf("fresh: got %v", err)
	}
	if err := freshness.CheckWorkingDir(embedded("other", "sha256:00")); err != nil {
		t.Errorf("another mod's test: got %v, want no check", err)
	}
	err = freshness.CheckWorkingDir(embedded("tasks", "sha256:00"))
	if want := "mod tasks (" + dir + "): generated files are out of date; run go generate in " + dir; err == nil || err.Error() != want {
		t.Errorf("stale: got %v, want %q", err, want)
	}
}

// BenchmarkDir measures the check a host makes per mod at load.
func BenchmarkDir(b *testing.B) {
	for b.Loop() {
		if _, err := freshness.Dir("../../examples/research"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDirSmall measures the check for a one-file mod, as in the
// list100 benchmark's fleet.
func BenchmarkDirSmall(b *testing.B) {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "fleet001.go"), []byte("package fleet001\n"), 0o644)
	os.WriteFile(filepath.Join(dir, manifest.FileName), []byte("{}"), 0o644)
	for b.Loop() {
		if _, err := freshness.Dir(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGofmtKeepsCurrent: formatting a mod's sources with gofmt (as an
// editor does on save, or gofmt -w . over the module, generated files and
// all) leaves its generated files current.
func TestGofmtKeepsCurrent(t *testing.T) {
	dir := t.TempDir()
	unformatted := "package m\n\nimport   \"fmt\"\nfunc   F( ) {fmt.Println( 1 )}\n"
	src := filepath.Join(dir, "m.go")
	if err := os.WriteFile(src, []byte(unformatted), 0o644); err != nil {
		t.Fatal(err)
	}
	recorded := freshness.Files([]string{src})
	formatted, err := format.Source([]byte(unformatted))
	if err != nil || string(formatted) == unformatted {
		t.Fatalf("gofmt: %v", err)
	}
	if err := os.WriteFile(src, formatted, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := freshness.Check(dir, "m", recorded); err != nil {
		t.Errorf("after gofmt: %v", err)
	}
	// A change gofmt would not make still counts.
	if err := os.WriteFile(src, append(formatted, "func G() {}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := freshness.Check(dir, "m", recorded); !errors.Is(err, freshness.ErrStale) {
		t.Errorf("after a change: got %v, want %v", err, freshness.ErrStale)
	}
}

// An image beside the Go files counts: editing a mod's icon makes it
// stale, while a directory without images hashes its Go files alone.
func TestImagesCount(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("m.go", "package m\n")
	goOnly, err := freshness.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	write("icon.svg", "<svg/>")
	write("notes.txt", "not an image")
	withIcon, err := freshness.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if withIcon == goOnly {
		t.Error("adding icon.svg left the hash as it was")
	}
	if want := freshness.Files([]string{filepath.Join(dir, "m.go")}); withIcon != want {
		t.Errorf("Dir: got %s, want Files' %s", withIcon, want)
	}
	write("icon.svg", "<svg></svg>")
	if err := freshness.Check(dir, "m", withIcon); !errors.Is(err, freshness.ErrStale) {
		t.Errorf("after editing icon.svg: got %v, want stale", err)
	}
	os.Remove(filepath.Join(dir, "icon.svg"))
	os.Remove(filepath.Join(dir, "m.go"))
	write("only.png", "\x89PNG")
	if _, err := freshness.Dir(dir); !errors.Is(err, freshness.ErrNoGoFiles) {
		t.Errorf("images alone: got %v, want ErrNoGoFiles", err)
	}
}

package quickread_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/quickread"
)

func TestFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, size := range []int{0, 1, 100, 8 << 10, 8<<10 + 1, 100 << 10} {
		data := bytes.Repeat([]byte("ab\n"), size)[:size]
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// The right size, none, and wrong ones all read the whole file.
		for _, hint := range []int64{int64(size), 0, 1, int64(size) + 10} {
			got, err := quickread.File(path, hint)
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("size %d, hint %d: got %d bytes, %v; want %d bytes", size, hint, len(got), err, size)
			}
		}
	}
}

// TestFileInto reads files of several sizes into one buffer, and checks
// that each read gives the whole file and reuses the buffer when it fits.
func TestFileInto(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	buf := make([]byte, 0, 200)
	for _, size := range []int{100, 0, 150, 8 << 10, 10} {
		data := bytes.Repeat([]byte("xy"), size)[:size]
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := quickread.FileInto(buf, path, 0)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("size %d: got %d bytes, %v; want %d bytes", size, len(got), err, size)
		}
		if reused := cap(got) > 0 && &got[:1][0] == &buf[:1][0]; reused != (size < cap(buf)) && runtime.GOOS != "windows" {
			t.Errorf("size %d: buffer of %d reused: got %v, want %v", size, cap(buf), reused, size < cap(buf))
		}
		buf = got
	}
}

func TestFileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	_, err := quickread.File(missing, 0)
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != missing {
		t.Errorf("missing file: got %v, want a *fs.PathError naming it that is fs.ErrNotExist", err)
	}
	if _, err := quickread.File(dir, 0); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("directory: got %v, want an error naming it", err)
	}
}

// BenchmarkFile compares File with os.ReadFile on a manifest-sized file.
func BenchmarkFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "f")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 5280), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("quickread", func(b *testing.B) {
		for b.Loop() {
			if _, err := quickread.File(path, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("os.ReadFile", func(b *testing.B) {
		for b.Loop() {
			if _, err := os.ReadFile(path); err != nil {
				b.Fatal(err)
			}
		}
	})
}

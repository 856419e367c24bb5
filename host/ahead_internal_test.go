package host

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/manifest"
)

// TestLookAhead checks that the work begun before the key is known reads
// the newest record of the mod's own directory, and that a start uses it
// only for that record as it still is.
func TestLookAhead(t *testing.T) {
	t.Parallel()
	c, err := modbuild.OpenCache(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "echo.go"), []byte("package echo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir() // the same mod id checked out elsewhere
	m := &mod{h: &Host{opts: Options{CacheDir: filepath.Dir(c.Bin)}}, dir: dir, man: &manifest.Manifest{ID: "echo"}}
	start := time.Now().Add(-time.Hour)
	write := func(key, inDir string, content []byte, at time.Time) (string, *modbuild.Record) {
		t.Helper()
		sum := sha256.Sum256(content)
		name := modbuild.BinaryName("echo", key, hex.EncodeToString(sum[:]))
		if err := os.WriteFile(filepath.Join(c.Bin, name), content, 0o500); err != nil {
			t.Fatal(err)
		}
		inputs := []modbuild.Input{{Dir: inDir, Files: []string{"echo.go"}}}
		r := &modbuild.Record{Inputs: inputs, Digest: modbuild.Digest(inputs), Binary: name, Sum: hex.EncodeToString(sum[:])}
		path := c.Record("echo", key)
		if err := modbuild.WriteRecord(path, r); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
		return path, r
	}
	write("000000000000000000000001", dir, []byte("old build"), start)
	own, _ := write("000000000000000000000002", dir, []byte("own build"), start.Add(time.Minute))
	write("000000000000000000000003", other, []byte("other checkout"), start.Add(2*time.Minute))

	a := m.lookAhead()
	if a == nil || a.path != own {
		t.Fatalf("lookAhead: got %+v, want the record %s", a, own)
	}
	b, err := m.cached(c, own, a)
	if err != nil || b == nil {
		t.Fatalf("cached with the record looked at ahead: got %v, %v", b, err)
	}
	if got, err := b.fileSum(); err != nil || !bytes.Equal(got, b.sum) {
		t.Errorf("the checksum taken ahead: got %x, %v; want %x", got, err, b.sum)
	}

	// The record was rewritten meanwhile (another host rebuilt): the
	// start reads it anew.
	_, r := write("000000000000000000000002", dir, []byte("rebuilt"), start.Add(3*time.Minute))
	b, err = m.cached(c, own, a)
	if err != nil || b == nil {
		t.Fatalf("cached after the record changed: got %v, %v", b, err)
	}
	if got, err := b.fileSum(); err != nil || hex.EncodeToString(got) != r.Sum {
		t.Errorf("the checksum after the record changed: got %x, %v; want %s", got, err, r.Sum)
	}

	// A call begins the same look-ahead for its start, which takes it
	// once; one the start did not take is dropped when the call ends.
	m.lookEarly()
	m.lookEarly() // a second call while one is begun begins none
	looked := m.takeEarly()
	if looked == nil {
		t.Fatal("takeEarly after lookEarly: got nil")
	}
	if a := <-looked; a == nil || a.path != own {
		t.Errorf("the look-ahead a call began: got %+v, want the record %s", a, own)
	}
	if m.takeEarly() != nil {
		t.Error("a look-ahead was taken twice")
	}
	m.lookEarly()
	m.dropEarly()
	if m.takeEarly() != nil {
		t.Error("a dropped look-ahead was taken")
	}

	// A mod with no record of its directory begins nothing.
	m = &mod{h: m.h, dir: t.TempDir(), man: m.man}
	if a := m.lookAhead(); a != nil {
		t.Errorf("lookAhead of a directory no record names: got %+v, want nil", a)
	}
}

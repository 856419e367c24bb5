package modbuild

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestNewestRecords(t *testing.T) {
	c := testCache(t)
	older, _ := writeEntry(t, c, "echo", fakeKey(1), fakeSum(1), now.Add(-2*day))
	newest, _ := writeEntry(t, c, "echo", fakeKey(2), fakeSum(2), now)
	middle, _ := writeEntry(t, c, "echo", fakeKey(3), fakeSum(3), now.Add(-day))
	writeEntry(t, c, "echo-x", fakeKey(4), fakeSum(4), now.Add(day)) // another mod, whose id starts alike
	writeFile(t, filepath.Join(c.rec, "echo-notakey.json"), "{}", now.Add(day))
	writeFile(t, filepath.Join(c.rec, "echo-"+fakeKey(5)+".json.tmp"), "{}", now.Add(day))
	if got, want := NewestRecords(c.root, "echo"), []string{newest, middle, older}; !slices.Equal(got, want) {
		t.Errorf("NewestRecords: got %q, want %q", got, want)
	}
	if got := NewestRecords(c.root, "other"); len(got) != 0 {
		t.Errorf("NewestRecords of a mod with no record: got %q, want none", got)
	}
	missing := filepath.Join(t.TempDir(), "none")
	if got := NewestRecords(missing, "echo"); len(got) != 0 {
		t.Errorf("NewestRecords in no cache: got %q, want none", got)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("NewestRecords created the cache %s (stat: %v)", missing, err)
	}
}

func TestSumAhead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bin")
	data := bytes.Repeat([]byte("mod binary "), 100000)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(data)
	sum := SumAhead(path)
	for range 2 {
		if got, err := sum(); err != nil || !bytes.Equal(got, want[:]) {
			t.Errorf("SumAhead: got %x, %v; want %x", got, err, want)
		}
	}
	if _, err := SumAhead(path + ".missing")(); !os.IsNotExist(err) {
		t.Errorf("SumAhead of a missing file: got %v, want it not found", err)
	}
}

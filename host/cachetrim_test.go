package host_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
)

// A build is followed by the cache's daily trim, which removes what went
// unused for 5 days and keeps what the host uses; a host finding a binary
// unused for a while marks it used, without building.
func TestBuildTrimsTheCache(t *testing.T) {
	t.Parallel()
	cache := copyCache(t, crashyDir)
	rec, r := cachedRecord(t, cache, "crashy")
	r["digest"] = "changed" // the inputs changed: build again
	data, _ := json.Marshal(r)
	rewrite(t, rec, data)

	long := time.Now().Add(-10 * 24 * time.Hour)
	key := "0123456789abcdef01234567"
	oldRec := filepath.Join(cache, "rec", "gone-"+key+".json")
	oldBin := filepath.Join(cache, "bin", "gone-"+key+"-0123456789abcdef01234567")
	oldSrc := filepath.Join(cache, "src", "gone-"+key)
	for _, f := range []struct{ path, content string }{
		{oldRec, `{"inputs":[],"digest":"d","binary":"` + filepath.Base(oldBin) + `"}`},
		{oldBin, "binary"},
		{filepath.Join(oldSrc, "main.go"), "package main"},
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte(f.content), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(f.path, long, long)
	}
	os.Chtimes(oldSrc, long, long)

	h := load(t, &host.Options{CacheDir: cache}, crashyDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	if n := builds(h, "crashy"); n != 1 {
		t.Fatalf("got %d builds, want 1", n)
	}
	h.Close()
	for _, p := range []string{oldRec, oldBin, oldSrc} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s: still there after the build's trim, want it removed", p)
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "trim.txt")); err != nil {
		t.Errorf("no trim recorded: %v", err)
	}

	// Unused for days, then used: marked used, not rebuilt.
	rec, r = cachedRecord(t, cache, "crashy")
	bin := filepath.Join(cache, "bin", r["binary"].(string))
	for _, p := range []string{rec, bin} {
		os.Chtimes(p, long, long)
	}
	h = load(t, &host.Options{CacheDir: cache}, crashyDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	if n := builds(h, "crashy"); n != 0 {
		t.Errorf("got %d builds of a cached mod, want 0", n)
	}
	for _, p := range []string{rec, bin} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.ModTime().Before(long.Add(time.Hour)) {
			t.Errorf("%s: modified %v, want marked used by the start", p, fi.ModTime())
		}
	}
}

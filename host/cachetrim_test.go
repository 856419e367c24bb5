package host_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/modbuild"
)

// A build is followed by the cache's daily trim, which removes what went
// unused for 5 days and keeps what the host uses; a host finding a binary
// unused for a while marks it used, without building.
func TestBuildTrimsTheCache(t *testing.T) {
	t.Parallel()
	cache, rec, r := changedCrashy(t)

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

// A trim running all through a build removes nothing of it: the build's
// sources, though their directory is days old, and the binary it makes.
func TestTrimDuringABuild(t *testing.T) {
	t.Parallel()
	cache, rec, r := changedCrashy(t)
	long := time.Now().Add(-10 * 24 * time.Hour)
	src := filepath.Join(cache, "src", strings.TrimSuffix(filepath.Base(rec), ".json"))
	if err := os.MkdirAll(src, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{rec, filepath.Join(cache, "bin", r["binary"].(string)), src} {
		os.Chtimes(p, long, long)
	}
	c, err := modbuild.OpenCache(cache)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	trims := make(chan int)
	go func() {
		busy := 0
		defer func() { trims <- busy }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			// Trim while the host builds, holding the record's lock:
			// before, a trim would take the old entry, sources and all.
			if _, err := os.Stat(rec + ".lock"); err != nil {
				time.Sleep(time.Millisecond)
				continue
			}
			got, err := c.Trim(time.Now(), nil)
			if err != nil {
				t.Errorf("trim: %v", err)
				return
			}
			busy += got.Busy
		}
	}()
	h := load(t, &host.Options{CacheDir: cache}, crashyDir)
	res := call(t, h, "crashy_echo", `{"text":"x"}`)
	close(stop)
	busy := <-trims
	wantStatus(t, res, host.StatusCompleted)
	if n := builds(h, "crashy"); n != 1 {
		t.Errorf("got %d builds, want 1", n)
	}
	if busy == 0 {
		t.Error("no trim met the build: the test proved nothing")
	}
	_, r = cachedRecord(t, cache, "crashy")
	for _, p := range []string{src, filepath.Join(cache, "bin", r["binary"].(string))} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("after the build: %v", err)
		}
	}
}

// changedCrashy returns a copy of the shared cache, the path of its
// record of crashy and that record, which says crashy's inputs changed:
// a host builds it again.
func changedCrashy(t *testing.T) (cache, rec string, r map[string]any) {
	t.Helper()
	cache = copyCache(t, crashyDir)
	rec, r = cachedRecord(t, cache, "crashy")
	r["digest"] = "changed"
	data, _ := json.Marshal(r)
	rewrite(t, rec, data)
	return cache, rec, r
}

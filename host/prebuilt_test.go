package host_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/modbuild"
)

// prebuiltCache returns a prebuilt cache of the mods in dirs, made from
// copies of the shared cache's binaries, without a build.
func prebuiltCache(t *testing.T, dirs ...string) string {
	t.Helper()
	cache := copyCache(t, dirs...)
	h := load(t, &host.Options{CacheDir: cache}, dirs...)
	if err := h.Prebuild(context.Background(), nil); err != nil {
		t.Fatalf("Prebuild: %v", err)
	}
	if n := builds(h, "crashy"); n != 0 {
		t.Errorf("Prebuild built crashy %d times, want none: its binary was in the cache", n)
	}
	h.Close()
	return cache
}

func TestPrebuiltCacheRuns(t *testing.T) {
	t.Parallel()
	cache := prebuiltCache(t, crashyDir)
	h := load(t, &host.Options{CacheDir: cache}, crashyDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	if n := builds(h, "crashy"); n != 0 {
		t.Errorf("got %d builds from a prebuilt cache, want 0", n)
	}
	if u := h.CheckBuilds(); len(u) != 0 {
		t.Errorf("CheckBuilds: got %v, want no unavailable mod", u)
	}
}

// A cache built for another platform or protocol is refused, naming what
// differs.
func TestPrebuiltCacheForeignRefused(t *testing.T) {
	t.Parallel()
	cache := prebuiltCache(t, crashyDir)
	tests := []struct {
		name string
		edit func(*modbuild.Index)
		want string
	}{
		{"os", func(i *modbuild.Index) { i.GOOS = "plan9" }, "it was built for plan9/" + runtime.GOARCH + ", and this host runs on " + runtime.GOOS + "/" + runtime.GOARCH},
		{"arch", func(i *modbuild.Index) { i.GOARCH = "mips" }, "it was built for " + runtime.GOOS + "/mips, and this host runs on " + runtime.GOOS + "/" + runtime.GOARCH},
		{"protocol", func(i *modbuild.Index) { i.Protocol = 999 }, "it was built by a modhost speaking modkit protocol 999, and this host speaks protocol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := t.TempDir()
			if err := os.CopyFS(c, os.DirFS(cache)); err != nil {
				t.Fatal(err)
			}
			idx, err := modbuild.ReadIndex(c)
			if err != nil || idx == nil {
				t.Fatalf("ReadIndex: got %v, %v, want an index", idx, err)
			}
			tt.edit(idx)
			data, _ := json.Marshal(idx)
			rewrite(t, filepath.Join(c, modbuild.IndexName), data)
			h := load(t, &host.Options{CacheDir: c}, crashyDir)
			// Known at load, before any call: a replica is not ready.
			if u := h.Unavailable(); len(u) != 1 || !strings.Contains(u[0].Err.Error(), tt.want) {
				t.Errorf("Unavailable after Load: got %v, want crashy's error naming %q", u, tt.want)
			}
			res := call(t, h, "crashy_echo", `{"text":"x"}`)
			wantStatus(t, res, host.StatusFailed)
			for _, want := range []string{tt.want, c + " was made by modhost build for another host", "run this host's modhost build --goos " + runtime.GOOS + " --goarch " + runtime.GOARCH} {
				if !strings.Contains(res.Error, want) {
					t.Errorf("got error %q, want it to contain %q", res.Error, want)
				}
			}
			if n := builds(h, "crashy"); n != 0 {
				t.Errorf("got %d builds, want 0", n)
			}
		})
	}
}

// A prebuilt binary that fails its checksum is reported, not evicted:
// the cache is not the host's to write.
func TestPrebuiltCacheForgedBinary(t *testing.T) {
	t.Parallel()
	cache := prebuiltCache(t, crashyDir)
	_, r := cachedRecord(t, cache, "crashy")
	bin := filepath.Join(cache, "bin", r["binary"].(string))
	rewrite(t, bin, []byte("#!/bin/sh\necho PWNED\n"))
	h := load(t, &host.Options{CacheDir: cache}, crashyDir)
	res := call(t, h, "crashy_echo", `{"text":"x"}`)
	wantStatus(t, res, host.StatusFailed)
	for _, want := range []string{"its checksum does not match the one recorded", "run modhost build -o " + cache + " again"} {
		if !strings.Contains(res.Error, want) {
			t.Errorf("got error %q, want it to contain %q", res.Error, want)
		}
	}
	if want := "Tool failed: mod crashy is unavailable: the prebuilt cache holds no current build of it"; res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Errorf("the forged binary was removed (%v), want it left in the prebuilt cache", err)
	}
	if n := builds(h, "crashy"); n != 0 {
		t.Errorf("got %d builds, want 0", n)
	}
}

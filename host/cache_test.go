package host_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/testenv"
)

// cachedRecord returns the path of mod id's one build record in cache, and
// the record as JSON fields.
func cachedRecord(t *testing.T, cache, id string) (string, map[string]any) {
	t.Helper()
	recs, _ := filepath.Glob(filepath.Join(cache, "rec", id+"-*.json"))
	if len(recs) != 1 {
		t.Fatalf("got records %v, want one", recs)
	}
	data, err := os.ReadFile(recs[0])
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return recs[0], r
}

// rewrite replaces a read-only cache file's content.
func rewrite(t *testing.T, path string, data []byte) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o600)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, fi.Mode().Perm())
}

func builds(h *testHost, id string) int {
	return strings.Count(h.progress.String(), "building mod "+id+"…")
}

// wantPrivate checks that what a host wrote into cache, with mod id's
// binary, only the user may read, and nobody may change.
func wantPrivate(t *testing.T, cache, id string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return // Windows guards files with ACLs, not mode bits
	}
	rec, r := cachedRecord(t, cache, id)
	for path, want := range map[string]os.FileMode{
		cache:                       0o700,
		filepath.Join(cache, "bin"): 0o700,
		filepath.Join(cache, "rec"): 0o700,
		rec:                         0o400,
		filepath.Join(cache, "bin", r["binary"].(string)): 0o500,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: got mode %04o, want %04o", path, got, want)
		}
	}
}

func TestWritableCacheIsRefused(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Windows guards files with ACLs, not mode bits")
	}
	for _, target := range []string{"bin", "record", "binary"} {
		t.Run(target, func(t *testing.T) {
			cache := copyCache(t, crashyDir)
			h := load(t, &host.Options{CacheDir: cache}, crashyDir)
			wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
			h.Close()
			rec, r := cachedRecord(t, cache, "crashy")
			path := map[string]string{
				"bin":    filepath.Join(cache, "bin"),
				"record": rec,
				"binary": filepath.Join(cache, "bin", r["binary"].(string)),
			}[target]
			if err := os.Chmod(path, 0o777); err != nil {
				t.Fatal(err)
			}
			h = load(t, &host.Options{CacheDir: cache}, crashyDir)
			res := call(t, h, "crashy_echo", `{"text":"x"}`)
			wantStatus(t, res, host.StatusFailed)
			fix := "chmod go-w " + path
			if target != "bin" {
				fix = "remove it (the host rebuilds it)"
			}
			for _, want := range []string{path + " is writable by others (mode 0777)", "anyone who can write it can run code as you", fix} {
				if !strings.Contains(res.Error, want) {
					t.Errorf("got error %q, want it to contain %q", res.Error, want)
				}
				// The operator reads why, not only the model's short reason.
				if !strings.Contains(h.progress.String(), want) {
					t.Errorf("got progress %q, want it to contain %q", h.progress, want)
				}
			}
			if want := "Tool failed: mod crashy is unavailable: the host's build cache is unusable"; res.Text != want {
				t.Errorf("got text %q, want %q", res.Text, want)
			}
			if builds(h, "crashy") != 0 {
				t.Errorf("built in a cache others can write")
			}
		})
	}
}

// A binary whose checksum does not match its record is evicted and
// rebuilt, not served and not left to fail every call.
func TestForgedChecksum(t *testing.T) {
	t.Parallel()
	for _, forge := range []string{"record", "binary"} {
		t.Run(forge, func(t *testing.T) {
			cache := copyCache(t, crashyDir)
			h := load(t, &host.Options{CacheDir: cache}, crashyDir)
			wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
			h.Close()
			rec, r := cachedRecord(t, cache, "crashy")
			bin := filepath.Join(cache, "bin", r["binary"].(string))
			if forge == "record" {
				r["sum"] = strings.Repeat("ab", 32)
				data, _ := json.Marshal(r)
				rewrite(t, rec, data)
			} else {
				rewrite(t, bin, []byte("#!/bin/sh\necho PWNED\n"))
			}
			h = load(t, &host.Options{CacheDir: cache}, crashyDir)
			wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
			if !strings.Contains(h.progress.String(), "its checksum does not match the one recorded") ||
				!strings.Contains(h.progress.String(), "evicted it, rebuilding") {
				t.Errorf("progress %q does not report the eviction", h.progress)
			}
			if n := builds(h, "crashy"); n != 1 {
				t.Errorf("got %d builds, want 1", n)
			}
			// The rebuilt binary serves the next host without a build.
			h.Close()
			h = load(t, &host.Options{CacheDir: cache}, crashyDir)
			wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
			if n := builds(h, "crashy"); n != 0 {
				t.Errorf("got %d builds after the rebuild, want 0", n)
			}
		})
	}
}

// A planted executable with a record forged to match it (its checksum
// right) fails to start: it is evicted and the mod rebuilt, not run and
// failed on every call.
func TestPlantedBinary(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the planted executable is a shell script")
	}
	cache := copyCache(t, crashyDir)
	h := load(t, &host.Options{CacheDir: cache}, crashyDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	h.Close()
	rec, r := cachedRecord(t, cache, "crashy")
	bin := filepath.Join(cache, "bin", r["binary"].(string))
	planted := []byte("#!/bin/sh\necho planted >&2\nexit 3\n")
	rewrite(t, bin, planted)
	sum := sha256.Sum256(planted)
	r["sum"] = hex.EncodeToString(sum[:])
	data, _ := json.Marshal(r)
	rewrite(t, rec, data)

	for i := range 2 {
		h = load(t, &host.Options{CacheDir: cache}, crashyDir)
		wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
		want := map[int]int{0: 1, 1: 0}[i] // a rebuild, then none
		if n := builds(h, "crashy"); n != want {
			t.Errorf("host %d: got %d builds, want %d; progress:\n%s", i, n, want, h.progress)
		}
		if i == 0 && !strings.Contains(h.progress.String(), "did not start as a mod; evicted it, rebuilding") {
			t.Errorf("host %d: progress %q does not report the eviction", i, h.progress)
		}
		h.Close()
	}
}

// A binary with a valid checksum that serves another mod is evicted and
// rebuilt.
func TestForeignBinary(t *testing.T) {
	t.Parallel()
	cache := copyCache(t, crashyDir, quickDir)
	h := load(t, &host.Options{CacheDir: cache}, crashyDir, quickDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	wantStatus(t, call(t, h, "quick_echo", `{"text":"x"}`), host.StatusCompleted)
	h.Close()
	rec, r := cachedRecord(t, cache, "crashy")
	_, q := cachedRecord(t, cache, "quick")
	quick, err := os.ReadFile(filepath.Join(cache, "bin", q["binary"].(string)))
	if err != nil {
		t.Fatal(err)
	}
	rewrite(t, filepath.Join(cache, "bin", r["binary"].(string)), quick)
	r["sum"] = q["sum"]
	data, _ := json.Marshal(r)
	rewrite(t, rec, data)

	h = load(t, &host.Options{CacheDir: cache}, crashyDir)
	res := call(t, h, "crashy_echo", `{"text":"x"}`)
	wantStatus(t, res, host.StatusCompleted)
	if !strings.Contains(h.progress.String(), "it serves mod quick") {
		t.Errorf("progress %q does not report the foreign binary", h.progress)
	}
	if n := builds(h, "crashy"); n != 1 {
		t.Errorf("got %d builds, want 1", n)
	}
}

// Hosts sharing a cold cache build a mod once, and the cache they make is
// private (one build serves both checks: a build is slow).
func TestConcurrentHostsBuildOnce(t *testing.T) {
	t.Parallel()
	cache := filepath.Join(t.TempDir(), "cache")
	hosts := make([]*testHost, 3)
	for i := range hosts {
		hosts[i] = load(t, &host.Options{CacheDir: cache}, crashyDir)
	}
	var wg sync.WaitGroup
	results := make([]*host.CallResult, len(hosts))
	for i, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], _ = h.Call(t.Context(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"x"}`)})
		}()
	}
	wg.Wait()
	total := 0
	for i, h := range hosts {
		if results[i] == nil || results[i].Status != host.StatusCompleted {
			t.Errorf("host %d: got %+v, want completed", i, results[i])
		}
		total += builds(h, "crashy")
	}
	if total != 1 {
		t.Errorf("got %d builds, want 1", total)
	}
	wantPrivate(t, cache, "crashy")
}

// A cache the host cannot write is refused saying which directory, why,
// and what to do, to the operator as well as in the error.
func TestReadOnlyCacheIsRefused(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Windows guards files with ACLs, not mode bits")
	}
	cache := readOnlyDir(t)
	h := load(t, &host.Options{CacheDir: filepath.Join(cache, "modkit")}, crashyDir)
	res := call(t, h, "crashy_echo", `{"text":"x"}`)
	wantStatus(t, res, host.StatusFailed)
	if want := "Tool failed: mod crashy is unavailable: the host's build cache is unusable"; res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
	for _, want := range []string{"build cache: " + cache + " is ", "and the host writes the mods' binaries there", "or choose another cache directory"} {
		if !strings.Contains(res.Error, want) {
			t.Errorf("got error %q, want it to contain %q", res.Error, want)
		}
		if !strings.Contains(h.progress.String(), want) {
			t.Errorf("got progress %q, want it to contain %q", h.progress, want)
		}
	}
	// Said once, however many calls fail.
	call(t, h, "crashy_echo", `{"text":"x"}`)
	if n := strings.Count(h.progress.String(), "build cache: "); n != 1 {
		t.Errorf("progress says it %d times, want once:\n%s", n, h.progress)
	}
}

// A cached binary built from other sources than the mod's (its embedded
// source hash differs) while the mod's sources match its generated files is
// evicted and rebuilt, not reported as out of date.
func TestBinaryOfOtherSources(t *testing.T) {
	t.Parallel()
	// A copy of crashy with an edited source, regenerated: the same mod id,
	// another source hash, in a module outside the source tree.
	other := filepath.Join(testenv.ModuleDir(t), "othersources")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(crashyDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(crashyDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "crashy.go" {
			data = append(data, "\n// Another source.\n"...)
		}
		data = bytes.ReplaceAll(data, []byte("github.com/modkit/modkit/host/testdata/mods/crashy"), []byte(testenv.ModulePath+"/othersources"))
		if err := os.WriteFile(filepath.Join(other, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	oldHash := sourceHash(t, crashyDir)
	newHash, err := freshness.Dir(other)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mod.manifest.json", "zz_generated.modgen.go"} {
		path := filepath.Join(other, name)
		data, _ := os.ReadFile(path)
		if err := os.WriteFile(path, bytes.ReplaceAll(data, []byte(oldHash), []byte(newHash)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	otherCache := t.TempDir()
	ho := load(t, &host.Options{CacheDir: otherCache}, other)
	wantStatus(t, call(t, ho, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	ho.Close()
	_, o := cachedRecord(t, otherCache, "crashy")
	otherBin, err := os.ReadFile(filepath.Join(otherCache, "bin", o["binary"].(string)))
	if err != nil {
		t.Fatal(err)
	}

	// Plant it, with its checksum, as crashy's build.
	cache := copyCache(t, crashyDir)
	rec, r := cachedRecord(t, cache, "crashy")
	rewrite(t, filepath.Join(cache, "bin", r["binary"].(string)), otherBin)
	r["sum"] = o["sum"]
	data, _ := json.Marshal(r)
	rewrite(t, rec, data)

	h := load(t, &host.Options{CacheDir: cache}, crashyDir)
	res := call(t, h, "crashy_echo", `{"text":"x"}`)
	wantStatus(t, res, host.StatusCompleted)
	if !strings.Contains(h.progress.String(), "it was built from other sources") || !strings.Contains(h.progress.String(), "evicted it, rebuilding") {
		t.Errorf("progress %q does not report the eviction", h.progress)
	}
	if strings.Contains(h.progress.String(), "out of date") {
		t.Errorf("progress %q calls fresh sources out of date", h.progress)
	}
	if n := builds(h, "crashy"); n != 1 {
		t.Errorf("got %d builds, want 1", n)
	}
}

// sourceHash returns the sourceHash of the manifest in dir, without its
// "sha256:" prefix's absence assumed.
func sourceHash(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "mod.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		SourceHash string `json:"sourceHash"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m.SourceHash
}

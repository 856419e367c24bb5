package modbuild

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// now is the tests' fake present; files get their times from it.
var now = time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

func testCache(t *testing.T) *Cache {
	t.Helper()
	c, err := OpenCache(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fakeKey returns a key, 24 hex digits, from n.
func fakeKey(n int) string { return fmt.Sprintf("%024x", n) }

// fakeSum returns a SHA-256 in hex from n, which its first 24 digits (a
// binary's name) tell apart.
func fakeSum(n int) string { return fmt.Sprintf("%024x", n) + strings.Repeat("0", 40) }

// writeEntry writes what a build of the mod id and key leaves, a binary of
// sum, and dates it at.
func writeEntry(t testing.TB, c *Cache, id, key, sum string, at time.Time) (rec, bin string) {
	t.Helper()
	name := BinaryName(id, key, sum)
	bin = writeFile(t, filepath.Join(c.Bin, name), strings.Repeat("b", 100), at)
	if _, err := c.Overlay(id, key, "/mod", []byte("package main\n")); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(c.src, id+"-"+key)
	for _, p := range []string{filepath.Join(src, "main.go"), filepath.Join(src, "overlay.json"), src} {
		age(t, p, at)
	}
	rec = c.Record(id, key)
	if err := WriteRecord(rec, &Record{Digest: "d", Binary: name, Sum: sum}); err != nil {
		t.Fatal(err)
	}
	age(t, rec, at)
	return rec, bin
}

func writeFile(t testing.TB, path, content string, at time.Time) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	age(t, path, at)
	return path
}

func age(t testing.TB, path string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func wantGone(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if exists(p) {
			t.Errorf("%s: still there, want it trimmed", p)
		}
	}
}

func wantKept(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if !exists(p) {
			t.Errorf("%s: trimmed, want it kept", p)
		}
	}
}

func TestTrimRemovesWhatWentUnused(t *testing.T) {
	c := testCache(t)
	oldRec, oldBin := writeEntry(t, c, "old", fakeKey(1), fakeSum(1), now.Add(-6*day))
	oldSrc := filepath.Join(c.src, "old-"+fakeKey(1))
	newRec, newBin := writeEntry(t, c, "fresh", fakeKey(2), fakeSum(2), now.Add(-1*day))
	// A binary built from older sources of the fresh entry: unused.
	staleBin := writeFile(t, filepath.Join(c.Bin, BinaryName("fresh", fakeKey(2), fakeSum(3))), "x", now.Add(-6*day))
	// An old record whose binary a process still runs (refreshed hourly).
	runRec, runBin := writeEntry(t, c, "running", fakeKey(4), fakeSum(4), now.Add(-6*day))
	age(t, runBin, now.Add(-time.Hour))
	// Binaries named before names carried the key: one a fresh record
	// names, one nothing names.
	legacyUsed := writeFile(t, filepath.Join(c.Bin, "legacy-"+fakeSum(5)[:24]), "x", now.Add(-6*day))
	legacyRec := c.Record("legacy", fakeKey(5))
	if err := WriteRecord(legacyRec, &Record{Binary: filepath.Base(legacyUsed)}); err != nil {
		t.Fatal(err)
	}
	legacyGone := writeFile(t, filepath.Join(c.Bin, "legacy-"+fakeSum(6)[:24]), "x", now.Add(-6*day))
	// What dead builds left.
	deadTmp := writeFile(t, filepath.Join(c.Bin, ".build-dead-1"), "x", now.Add(-6*day))
	liveTmp := writeFile(t, filepath.Join(c.Bin, ".build-live-1"), "x", now)
	deadLock := writeFile(t, c.Record("gone", fakeKey(7))+".lock", "", now.Add(-6*day))
	// Module copies (see package modlock).
	mods := filepath.Join(c.root, "mods")
	oldCopy := writeFile(t, filepath.Join(mods, "example.com", "a@v1.0.0", "go.mod"), "module a\n", now.Add(-6*day))
	age(t, filepath.Dir(oldCopy), now.Add(-6*day))
	newCopy := writeFile(t, filepath.Join(mods, "example.com", "b@v1.0.0", "go.mod"), "module b\n", now.Add(-6*day))
	age(t, filepath.Dir(newCopy), now.Add(-2*day))
	deadCopy := writeFile(t, filepath.Join(mods, "example.com", ".copy-123", "go.mod"), "x", now.Add(-6*day))
	age(t, filepath.Dir(deadCopy), now.Add(-6*day))

	dry, err := c.Trim(now, &TrimOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	wantKept(t, oldRec, oldBin, oldSrc, staleBin, legacyGone, deadTmp, filepath.Dir(oldCopy), filepath.Dir(deadCopy))
	if !c.TrimDue(now) {
		t.Error("a dry run recorded a trim")
	}
	got, err := c.Trim(now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if *dry != *got {
		t.Errorf("the dry run counted %+v, the trim %+v", dry, got)
	}
	wantGone(t, oldRec, oldBin, oldSrc, staleBin, legacyGone, deadTmp, deadLock, filepath.Dir(oldCopy), filepath.Dir(deadCopy))
	wantKept(t, newRec, newBin, runRec, runBin, legacyUsed, legacyRec, liveTmp, newCopy)
	// old's record, binary and sources, fresh's stale binary, the legacy
	// orphan, the dead build's file, the old copy and the dead one.
	if got.Removed != 8 || got.Busy != 0 {
		t.Errorf("got %+v, want 8 removed, none busy", got)
	}
	if got.Freed < 100 {
		t.Errorf("got %d bytes freed, want at least the old binary's 100", got.Freed)
	}
}

// An entry under its lock (being built, or refreshed for a start) is
// left alone, however old.
func TestTrimSkipsLockedEntries(t *testing.T) {
	c := testCache(t)
	rec, bin := writeEntry(t, c, "m", fakeKey(1), fakeSum(1), now.Add(-10*day))
	unlock, err := LockFile(rec + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	copyDir := filepath.Join(c.root, "mods", "example.com", "a@v1.0.0")
	writeFile(t, filepath.Join(copyDir, "go.mod"), "module a\n", now.Add(-10*day))
	age(t, copyDir, now.Add(-10*day))
	unlockCopy, err := LockFile(copyDir + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Trim(now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Busy != 2 || got.Removed != 0 {
		t.Errorf("got %+v, want 2 busy, none removed", got)
	}
	wantKept(t, rec, bin, copyDir)
	unlock()
	unlockCopy()
	if got, err := c.Trim(now, nil); err != nil || got.Removed != 4 {
		t.Fatalf("unlocked: got %+v, %v, want 4 removed (record, binary, sources, copy)", got, err)
	}
	wantGone(t, rec, bin, copyDir)
}

func TestTrimRefusesAShortUnusedTime(t *testing.T) {
	c := testCache(t)
	if _, err := c.Trim(now, &TrimOptions{Unused: time.Hour}); err == nil || !strings.Contains(err.Error(), "under 2h0m0s") {
		t.Fatalf("got %v, want an error naming the least unused time", err)
	}
}

func TestTrimIsDueOnceADay(t *testing.T) {
	c := testCache(t)
	if !c.TrimDue(now) {
		t.Error("no trim yet: got not due, want due")
	}
	if _, err := c.AutoTrim(now); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		at   time.Time
		want bool
	}{
		{now.Add(time.Hour), false},
		{now.Add(day - time.Second), false},
		{now.Add(day), true},
		{now.Add(-2 * day), true}, // the clock was set back
	} {
		if got := c.TrimDue(tt.at); got != tt.want {
			t.Errorf("at %s after the trim: got due %v, want %v", tt.at.Sub(now), got, tt.want)
		}
	}
	if got, err := c.AutoTrim(now.Add(time.Hour)); got != nil || err != nil {
		t.Errorf("an hour after a trim: got %+v, %v, want no trim", got, err)
	}
}

func TestRefreshMarksUsed(t *testing.T) {
	c := testCache(t)
	rec, bin := writeEntry(t, c, "m", fakeKey(1), fakeSum(1), now.Add(-10*day))
	if ok, err := Refresh(rec, bin, now); !ok || err != nil {
		t.Fatalf("got %v, %v, want refreshed", ok, err)
	}
	for _, p := range []string{rec, bin} {
		if fi, err := os.Stat(p); err != nil || !fi.ModTime().Equal(now) {
			t.Errorf("%s: got modified %v (%v), want %v", p, fi.ModTime(), err, now)
		}
	}
	if _, err := c.Trim(now, nil); err != nil {
		t.Fatal(err)
	}
	wantKept(t, rec, bin)
	RemoveFile(bin)
	if ok, err := Refresh(rec, bin, now); ok || err != nil {
		t.Errorf("binary gone: got %v, %v, want false, nil", ok, err)
	}
	if exists(rec + ".lock") {
		t.Error("the lock is still held after Refresh")
	}
}

// A process's binary stays used as long as the process runs.
func TestKeepUsedRefreshesHourly(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "bin")
	writeFile(t, bin, "x", now.Add(-10*day))
	synctest.Test(t, func(t *testing.T) {
		done := make(chan struct{})
		ended := make(chan struct{})
		go func() {
			KeepUsed(done, bin)
			close(ended)
		}()
		for range 3 {
			time.Sleep(RefreshAfter)
			synctest.Wait()
			fi, err := os.Stat(bin)
			if err != nil {
				t.Fatal(err)
			}
			if want := time.Now(); !fi.ModTime().Equal(want) {
				t.Errorf("got modified %v, want %v", fi.ModTime(), want)
			}
		}
		close(done)
		<-ended
	})
}

func TestParseBinary(t *testing.T) {
	key, sum := fakeKey(1), fakeSum(2)
	for _, tt := range []struct{ name, want string }{
		{BinaryName("m", key, sum), "m-" + key},
		{BinaryName("my-mod.v2", key, sum), "my-mod.v2-" + key},
		{"m-" + sum[:24] + ExeSuffix, ""}, // named before names carried the key
		{"m-" + key + "-short", ""},
		{".build-m-123", ""},
		{"modhost", ""},
	} {
		if got := parseBinary(tt.name); got != tt.want {
			t.Errorf("parseBinary(%q): got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// PruneOld keeps other configurations' binaries: their records' locks are
// not held.
func TestPruneOldKeepsOtherConfigurations(t *testing.T) {
	c := testCache(t)
	old := now.Add(-2 * day) // PruneOld reads the real clock: now is in 2026
	if time.Since(old) < 2*day {
		t.Skip("the machine's clock is before the test's fake present")
	}
	_, keep := writeEntry(t, c, "m", fakeKey(1), fakeSum(1), old)
	sameKey := writeFile(t, filepath.Join(c.Bin, BinaryName("m", fakeKey(1), fakeSum(2))), "x", old)
	otherKey := writeFile(t, filepath.Join(c.Bin, BinaryName("m", fakeKey(3), fakeSum(3))), "x", old)
	otherMod := writeFile(t, filepath.Join(c.Bin, BinaryName("m-x", fakeKey(1), fakeSum(4))), "x", old)
	legacy := writeFile(t, filepath.Join(c.Bin, "m-"+fakeSum(5)[:24]), "x", old)
	PruneOld(c.Bin, "m", fakeKey(1), filepath.Base(keep))
	wantGone(t, sameKey, legacy)
	wantKept(t, keep, otherKey, otherMod)
}

func TestUsageCountsEachPart(t *testing.T) {
	c := testCache(t)
	writeEntry(t, c, "m", fakeKey(1), fakeSum(1), now)
	writeFile(t, filepath.Join(c.root, "mods", "example.com", "a@v1", "go.mod"), "12345", now)
	writeFile(t, filepath.Join(c.root, "extra"), "123", now)
	parts, err := Usage(c.root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int64{}
	for _, p := range parts {
		got[p.Name] = [2]int64{int64(p.Files), p.Bytes}
	}
	recSize := fileSize(t, c.Record("m", fakeKey(1)))
	want := map[string][2]int64{
		"binaries":          {1, 100},
		"build records":     {1, recSize},
		"generated sources": {2, fileSize(t, filepath.Join(c.src, "m-"+fakeKey(1), "main.go")) + fileSize(t, filepath.Join(c.src, "m-"+fakeKey(1), "overlay.json"))},
		"module copies":     {1, 5},
		"other":             {1, 3},
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: got %d files, %d bytes, want %d, %d", name, got[name][0], got[name][1], w[0], w[1])
		}
	}
	if parts, err := Usage(filepath.Join(t.TempDir(), "none")); err != nil || len(parts) != 5 || parts[0].Files != 0 {
		t.Errorf("no cache: got %+v, %v, want empty parts", parts, err)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// Hosts starting and building mods while others trim never lose a binary
// they took: each use either refreshes the entry under its lock, or finds
// it trimmed and builds it again under the same lock, as host does.
func TestTrimNeverRemovesABinaryInUse(t *testing.T) {
	c := testCache(t)
	const users, rounds = 4, 150
	for u := range users {
		writeEntry(t, c, fmt.Sprintf("m%d", u), fakeKey(u), fakeSum(u), time.Now().Add(-10*day))
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := c.Trim(time.Now(), nil); err != nil {
					t.Errorf("trim: %v", err)
					return
				}
			}
		})
	}
	var using sync.WaitGroup
	for u := range users {
		using.Go(func() {
			id, key := fmt.Sprintf("m%d", u), fakeKey(u)
			rec := c.Record(id, key)
			for round := range rounds {
				bin, err := use(c, id, key, round)
				if err != nil {
					t.Errorf("%s round %d: %v", id, round, err)
					return
				}
				// Used: however many trims run now, it stays.
				for range 3 {
					if _, err := os.ReadFile(bin); err != nil {
						t.Errorf("%s round %d: the binary in use was removed: %v", id, round, err)
						return
					}
				}
				// Time passes: the entry falls unused, under its lock as
				// the clock would move under everyone.
				unlock, err := LockFile(rec + ".lock")
				if err != nil {
					t.Error(err)
					return
				}
				old := time.Now().Add(-10 * day)
				for _, p := range []string{rec, bin, filepath.Join(c.src, id+"-"+key)} {
					os.Chtimes(p, old, old)
				}
				unlock()
			}
		})
	}
	using.Wait()
	close(stop)
	wg.Wait()
}

// use is host's protocol: a record found old is refreshed under its lock;
// one gone is built again under the lock, its sources first. It returns
// the binary to run.
func use(c *Cache, id, key string, round int) (string, error) {
	rec := c.Record(id, key)
	if r, err := ReadRecord(rec); err == nil && r != nil {
		bin := filepath.Join(c.Bin, r.Binary)
		if time.Since(r.Used) < RefreshAfter {
			return bin, nil
		}
		if ok, err := Refresh(rec, bin, time.Now()); err != nil || ok {
			return bin, err
		}
	}
	unlock, err := LockFile(rec + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	overlay, err := c.Overlay(id, key, "/mod", []byte("package main\n"))
	if err != nil {
		return "", err
	}
	// The sources' directory keeps its old time while the build runs.
	old := time.Now().Add(-10 * day)
	os.Chtimes(filepath.Dir(overlay), old, old)
	sum := fakeSum(1000*round + len(id))
	name := BinaryName(id, key, sum)
	if _, err := os.ReadFile(overlay); err != nil {
		return "", fmt.Errorf("the build's sources were removed: %v", err)
	}
	if err := os.WriteFile(filepath.Join(c.Bin, name), []byte("binary"), 0o500); err != nil && !os.IsPermission(err) {
		return "", err
	}
	if err := WriteRecord(rec, &Record{Binary: name, Sum: sum}); err != nil {
		return "", err
	}
	return filepath.Join(c.Bin, name), nil
}

// parseBinary's entry is an entry, and names the binary back with its sum.
func FuzzParseBinary(f *testing.F) {
	f.Add(BinaryName("m", fakeKey(1), fakeSum(2)))
	f.Add("m-" + fakeSum(2)[:24])
	f.Add(".build-m-1")
	f.Fuzz(func(t *testing.T, name string) {
		e := parseBinary(name)
		if e == "" {
			return
		}
		if !isEntry(e) {
			t.Fatalf("parseBinary(%q) = %q, not <id>-<key>", name, e)
		}
		id, key := e[:len(e)-hexLen-1], e[len(e)-hexLen:]
		sum := strings.TrimSuffix(name, ExeSuffix)[len(e)+1:] + strings.Repeat("0", 40)
		if got := BinaryName(id, key, sum); got != name {
			t.Fatalf("parseBinary(%q) = %q, which names %q", name, e, got)
		}
	})
}

// The answers kept to skip work (go env's, the inputs' digests, the
// sources' hashes) go when unused, whatever entry they served.
func TestTrimRemovesOldRememberedAnswers(t *testing.T) {
	c := testCache(t)
	var old, recent []string
	for _, dir := range []string{"env", "stamp", "fresh"} {
		old = append(old, writeFile(t, filepath.Join(c.root, dir, "a.json"), "{}", now.Add(-6*day)))
		recent = append(recent, writeFile(t, filepath.Join(c.root, dir, "b.json"), "{}", now.Add(-1*day)))
	}
	got, err := c.Trim(now, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantGone(t, old...)
	wantKept(t, recent...)
	if got.Removed != len(old) {
		t.Errorf("got %+v, want %d removed", got, len(old))
	}
}

package modbuild

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The cache keeps what was used lately and forgets the rest, as the go
// command's build cache does. A use refreshes an entry's modification
// time when it is older than RefreshAfter, so a busy entry costs a write
// an hour, not one a call; a process running a binary refreshes it hourly
// too. A trim removes the entries, binaries, sources and module copies
// unused for TrimUnused. A host trims at most once every trimEvery, after
// a build (the cache grows only by building); trim.txt holds the time of
// the last trim.
//
// An entry is a mod and configuration: rec/<id>-<key>.json, the binaries
// bin/<id>-<key>-<sum> and the sources src/<id>-<key>. Everything of an
// entry is built, refreshed and trimmed under its record's lock, so a trim
// never removes an entry being built or being taken for a start. The
// remembered answers beside the entries (env/, stamp/ and fresh/: go env's,
// the inputs' digests, the sources' hashes) are only shortcuts, checked
// before each use: a trim removes those not written for TrimUnused, and a
// removed one is worked out again.
const (
	// RefreshAfter is how old an entry gets before a use refreshes it.
	RefreshAfter = time.Hour
	// TrimUnused is how long an entry stays unused before a trim removes
	// it.
	TrimUnused = 5 * 24 * time.Hour
	// MinUnused is the least unused time a trim accepts: an entry used
	// within RefreshAfter may be in use without its lock.
	MinUnused = 2 * RefreshAfter
	// trimEvery is how often a host trims.
	trimEvery = 24 * time.Hour
)

// trimMarker names the file holding the last trim's time, in Unix seconds.
const trimMarker = "trim.txt"

// Trimmed is what a trim removed and kept.
type Trimmed struct {
	// Removed counts the files and directories removed; Freed, the bytes
	// of the files removed.
	Removed int
	Freed   int64
	// Busy counts the entries and copies skipped because a build or a
	// start held them.
	Busy int
}

// TrimDue reports whether the last trim is trimEvery old, or there was
// none.
func (c *Cache) TrimDue(now time.Time) bool {
	data, err := os.ReadFile(filepath.Join(c.root, trimMarker))
	if err != nil {
		return true
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return true
	}
	last := time.Unix(sec, 0)
	return now.Sub(last) >= trimEvery || last.After(now.Add(trimEvery)) // a clock set back
}

// AutoTrim trims entries unused for TrimUnused when a trim is due; nil
// when none was.
func (c *Cache) AutoTrim(now time.Time) (*Trimmed, error) {
	if !c.TrimDue(now) || c.prebuilt() {
		return nil, nil
	}
	return c.Trim(now, nil)
}

// TrimOptions configure a trim. A nil *TrimOptions means defaults.
type TrimOptions struct {
	// Unused is how long an entry goes unused before the trim removes it;
	// at least MinUnused. Default: TrimUnused.
	Unused time.Duration
	// DryRun counts what the trim would remove, and removes nothing.
	DryRun bool
}

// Trim removes the entries, stray files and module copies unused since
// opts.Unused before now, skipping those being built or started, and
// records now as the last trim's time.
func (c *Cache) Trim(now time.Time, opts *TrimOptions) (*Trimmed, error) {
	var o TrimOptions
	if opts != nil {
		o = *opts
	}
	if o.Unused == 0 {
		o.Unused = TrimUnused
	}
	if o.Unused < MinUnused {
		return nil, fmt.Errorf("trim: unused time %s is under %s: an entry used within %s may be in use", o.Unused, MinUnused, RefreshAfter)
	}
	if c.prebuilt() {
		return nil, fmt.Errorf("trim: %s is a prebuilt cache, made by modhost build, which no host uses or trims as it goes: make it again with modhost build -o into a new directory", c.root)
	}
	// The marker first: hosts sharing the cache need not trim together.
	if !o.DryRun {
		if err := writeMarker(filepath.Join(c.root, trimMarker), now); err != nil {
			return nil, CacheError(err)
		}
	}
	t := &trim{c: c, cutoff: now.Add(-o.Unused), dryRun: o.DryRun, done: &Trimmed{}}
	entries, err := t.entries()
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if err := t.entry(e); err != nil {
			return t.done, err
		}
	}
	t.orphans()
	for _, dir := range rememberedAnswers {
		t.oldFiles(filepath.Join(c.root, dir))
	}
	return t.done, t.copies(filepath.Join(c.root, "mods"))
}

// trim is one trim's state.
type trim struct {
	c      *Cache
	cutoff time.Time
	dryRun bool
	done   *Trimmed
	// bins are bin/'s file names by entry; legacy, binaries without a key.
	bins   map[string][]string
	legacy []string
	// named counts the records naming each binary.
	named map[string]int
}

// entries lists the cache's entries, sorted, and removes the stray
// temporary files of builds that died.
func (t *trim) entries() ([]string, error) {
	set := map[string]bool{}
	t.bins = map[string][]string{}
	for _, dir := range []string{t.c.rec, t.c.src, t.c.Bin} {
		des, err := os.ReadDir(dir)
		if err != nil {
			return nil, CacheError(err)
		}
		for _, de := range des {
			name := de.Name()
			switch {
			case strings.HasPrefix(name, "."): // .rec-*, .build-*: written by a build
				t.removeIfOld(filepath.Join(dir, name))
			case dir == t.c.Bin:
				if e := parseBinary(name); e != "" {
					set[e] = true
					t.bins[e] = append(t.bins[e], name)
				} else {
					t.legacy = append(t.legacy, name)
				}
			default:
				name = strings.TrimSuffix(strings.TrimSuffix(name, ".lock"), ".json")
				if isEntry(name) {
					set[name] = true
				}
			}
		}
	}
	t.named = map[string]int{}
	for e := range set {
		if b := recordBinary(filepath.Join(t.c.rec, e+".json")); b != "" {
			t.named[b]++
		}
	}
	var list []string
	for e := range set {
		list = append(list, e)
	}
	sort.Strings(list)
	return list, nil
}

// orphans removes the old binaries without a key that no record names.
func (t *trim) orphans() {
	for _, b := range t.legacy {
		if t.named[b] == 0 {
			t.removeIfOld(filepath.Join(t.c.Bin, b))
		}
	}
}

// entry trims one entry under its lock: all of it when neither its record
// nor its binary was used since the cutoff, else its older binaries.
func (t *trim) entry(e string) error {
	rec := filepath.Join(t.c.rec, e+".json")
	unlock, ok, err := TryLockFile(rec + ".lock")
	if err != nil {
		return CacheError(err)
	}
	if !ok {
		t.done.Busy++
		return nil
	}
	defer unlock()
	named := recordBinary(rec)
	used := t.recent(rec) || named != "" && t.recent(filepath.Join(t.c.Bin, named))
	for _, b := range t.bins[e] {
		if b != named || !used {
			t.removeIfOld(filepath.Join(t.c.Bin, b))
		}
	}
	if used {
		return nil
	}
	// A binary without a key may be another record's too.
	if named != "" && parseBinary(named) == "" && t.named[named] <= 1 {
		t.removeIfOld(filepath.Join(t.c.Bin, named))
	}
	t.removeIfOld(filepath.Join(t.c.src, e))
	t.removeIfOld(rec)
	return nil
}

// rememberedAnswers are the cache's folders of answers kept to skip work
// (see the package doc).
var rememberedAnswers = []string{"env", "stamp", "fresh"}

// oldFiles removes the files in dir not written since the cutoff.
func (t *trim) oldFiles(dir string) {
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		t.removeIfOld(filepath.Join(dir, de.Name()))
	}
}

// recordBinary returns the binary the record at path names, or "".
func recordBinary(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var r Record
	if json.Unmarshal(data, &r) != nil || r.Binary != filepath.Base(r.Binary) {
		return ""
	}
	return r.Binary
}

// recent reports whether path was modified since the cutoff; a missing
// file is not recent.
func (t *trim) recent(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && !fi.ModTime().Before(t.cutoff)
}

// removeIfOld removes the file or tree at path when it exists and was not
// modified since the cutoff, and reports whether it did.
func (t *trim) removeIfOld(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.ModTime().Before(t.cutoff) {
		return false
	}
	size := treeSize(path)
	if t.dryRun {
		t.done.Removed++
		t.done.Freed += size
		return true
	}
	if fi.IsDir() {
		makeWritable(path)
		if os.RemoveAll(path) != nil {
			return false
		}
	} else {
		RemoveFile(path)
		if _, err := os.Lstat(path); err == nil {
			return false
		}
	}
	t.done.Removed++
	t.done.Freed += size
	return true
}

// copies trims the module copies under dir (see package modlock): each is
// a directory whose name holds an @, locked by a file beside it.
func (t *trim) copies(dir string) error {
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir || !d.IsDir() {
			return nil
		}
		name := d.Name()
		switch {
		case strings.HasPrefix(name, "."): // .copy-*, .old-*: a copy that died half made
			t.removeIfOld(path)
			return fs.SkipDir
		case !strings.Contains(name, "@"):
			return nil
		}
		unlock, ok, err := TryLockFile(path + ".lock")
		if err != nil {
			return err
		}
		if !ok {
			t.done.Busy++
			return fs.SkipDir
		}
		defer unlock()
		t.removeIfOld(path)
		return fs.SkipDir
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return CacheError(err)
	}
	return nil
}

// makeWritable lets RemoveAll empty the read-only directories below dir.
func makeWritable(dir string) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o700)
		}
		return nil
	})
}

// treeSize is the size of the file at path, or of the files below it.
func treeSize(path string) int64 {
	var n int64
	filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// writeMarker writes now as the last trim's time.
func writeMarker(path string, now time.Time) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".trim-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = fmt.Fprintln(f, now.Unix())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

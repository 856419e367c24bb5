package modbuild

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// The build cache holds what the host runs, so writing to it is running
// code, as with Go's own build cache: its permissions are the guard. The
// host creates its directories 0700 and refuses a directory, binary or
// record that anyone but the user can write, saying how to fix it.
//
// Each build leaves a record, rec/<mod>-<config>.json, naming the inputs it
// read and the binary's SHA-256. go-plugin hashes the binary before every
// start and refuses it when the hash differs from the record's: that
// catches a binary corrupted, truncated or replaced without its record. It
// cannot stop someone who can write the cache from replacing both, which is
// why the permissions are checked. Binaries are written 0500 and records
// 0400, under a name no other file shares, so no tool overwrites one in
// place by accident. A binary that fails an identity check at start (its
// checksum, or serving another mod than the one asked for) is evicted, with
// its record, and rebuilt.
//
// A Cache is the directories of one cache root: Bin holds the binaries.
type Cache struct {
	root, Bin, rec, src string
}

// OpenCache creates the cache's directories when needed and checks that
// only the user can write them.
func OpenCache(root string) (*Cache, error) {
	c := &Cache{root: root, Bin: filepath.Join(root, "bin"), rec: filepath.Join(root, "rec"), src: filepath.Join(root, "src")}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, CacheError(err)
	}
	for _, d := range []string{c.root, c.Bin, c.rec, c.src} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, CacheError(err)
		}
		if err := CheckPrivate(d, true); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *Cache) Record(id, key string) string { return filepath.Join(c.rec, id+"-"+key+".json") }

// NewestRecords returns the paths of the records of mod id in the cache at
// root, the last written or marked used first; it creates nothing. The
// record of a mod's next start is most often the first of those whose
// inputs hold the mod's directory, which a host may read before the go
// command tells it the key.
func NewestRecords(root, id string) []string {
	dir := filepath.Join(root, "rec")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	type rec struct {
		path string
		when time.Time
	}
	var recs []rec
	for _, e := range entries {
		key, ok := strings.CutPrefix(e.Name(), id+"-")
		if key, ok = strings.CutSuffix(key, ".json"); !ok || !isKey(key) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
			recs = append(recs, rec{filepath.Join(dir, e.Name()), fi.ModTime()})
		}
	}
	slices.SortFunc(recs, func(a, b rec) int { return b.when.Compare(a.when) })
	paths := make([]string, len(recs))
	for i, r := range recs {
		paths[i] = r.path
	}
	return paths
}

// isKey reports whether s has the form of a configuration's key ([Key]).
func isKey(s string) bool {
	if len(s) != 24 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// Overlay writes the serving main package for one mod and configuration
// and the go build -overlay file placing it in dir/zz_modmain, and returns
// the overlay file's path.
func (c *Cache) Overlay(id, key, dir string, main []byte) (string, error) {
	src := filepath.Join(c.src, id+"-"+key)
	if err := os.MkdirAll(src, 0o700); err != nil {
		return "", err
	}
	mainFile := filepath.Join(src, "main.go")
	if err := os.WriteFile(mainFile, main, 0o600); err != nil {
		return "", err
	}
	overlay, _ := json.Marshal(map[string]map[string]string{
		"Replace": {filepath.Join(dir, "zz_modmain", "main.go"): mainFile},
	})
	overlayFile := filepath.Join(src, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o600); err != nil {
		return "", err
	}
	return overlayFile, nil
}

// otherCache says how to point a host at another cache directory.
const otherCache = "or choose another cache directory (Options.CacheDir; $MODKIT_CACHE for modhost)"

// CacheError explains a failed write into the cache: when the cache is
// read-only, which directory and how to fix it.
func CacheError(err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return fmt.Errorf("build cache: %w", err)
	}
	dir := filepath.Dir(pe.Path)
	switch {
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("build cache: %s is on a read-only file system (%s %s: %v), and the host writes the mods' binaries there; mount it read-write, %s",
			dir, pe.Op, pe.Path, pe.Err, otherCache)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("build cache: %s is not writable (%s %s: %v), and the host writes the mods' binaries there; chmod u+w %s, %s",
			dir, pe.Op, pe.Path, pe.Err, dir, otherCache)
	}
	return fmt.Errorf("build cache: %w", err)
}

// CheckPrivate refuses a cache file or directory that anyone but the user
// can write, with the command that fixes it.
func CheckPrivate(path string, dir bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.IsDir() != dir || fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("build cache: %s is not a plain %s; remove it and the host rebuilds what it needs", path, map[bool]string{true: "directory", false: "file"}[dir])
	}
	if why := writableByOthers(fi); why != "" {
		fix := "chmod go-w " + path
		if !dir {
			fix = "remove it (the host rebuilds it)"
		}
		return fmt.Errorf("build cache: %s is %s, so anyone who can write it can run code as you; %s, %s", path, why, fix, otherCache)
	}
	return nil
}

// ReadRecord reads the record at path; nil and nil when it is torn or
// foreign, to be built again.
func ReadRecord(path string) (*Record, error) {
	if err := CheckPrivate(path, false); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, nil // torn or foreign: build again
	}
	if fi, err := os.Lstat(path); err == nil {
		r.Used = fi.ModTime()
	}
	return &r, nil
}

// WriteRecord replaces the record at path atomically.
func WriteRecord(path string, r *Record) error {
	data, err := json.MarshalIndent(r, "", "\t")
	if err != nil {
		return err
	}
	return writeReadOnly(path, data)
}

// writeReadOnly replaces the file at path atomically with a read-only one
// holding data.
func writeReadOnly(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".rec-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o400); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		RemoveFile(path) // Windows does not replace a read-only file
		return os.Rename(f.Name(), path)
	}
	return nil
}

// RemoveFile removes a cache file, read-only ones included: Windows
// refuses to remove a read-only file.
func RemoveFile(path string) {
	if os.Remove(path) != nil {
		os.Chmod(path, 0o600)
		os.Remove(path)
	}
}

// ExeSuffix ends binary names: Windows runs only files named .exe.
var ExeSuffix = map[bool]string{true: ".exe"}[runtime.GOOS == "windows"]

// Lock files: held while building, so hosts sharing a cache build each mod
// once. The lock is a file created exclusively, which every OS offers; its
// holder touches it every lockBeat, and a waiter breaks a lock untouched
// for lockStale, left by a host that died.
const (
	lockBeat  = time.Second
	LockStale = 10 * time.Second
	LockPoll  = 25 * time.Millisecond
)

// LockFile takes the lock at path, waiting while another holds it.
func LockFile(path string) (unlock func(), err error) {
	for {
		unlock, err := lockOnce(path)
		if !errors.Is(err, fs.ErrExist) {
			return unlock, err
		}
		if !breakStale(path) {
			time.Sleep(LockPoll)
		}
	}
}

// TryLockFile takes the lock at path when no live holder has it; ok is
// false when one has.
func TryLockFile(path string) (unlock func(), ok bool, err error) {
	for range 2 {
		unlock, err := lockOnce(path)
		if err == nil {
			return unlock, true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, false, err
		}
		if !breakStale(path) {
			return nil, false, nil
		}
	}
	return nil, false, nil
}

// lockOnce creates the lock file at path, failing with fs.ErrExist when
// it exists, and touches it every lockBeat until unlock.
func lockOnce(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	f.Close()
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		touchEvery(done, lockBeat, path)
	}()
	return func() {
		close(done)
		<-stopped
		os.Remove(path)
	}, nil
}

// breakStale removes the lock at path when its holder died (it went
// untouched for LockStale), and reports whether the lock may be free now.
func breakStale(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return true // released meanwhile
	}
	if time.Since(fi.ModTime()) <= LockStale {
		return false
	}
	// Rename first: of several waiters, one breaks the lock.
	if os.Rename(path, path+".broken") == nil {
		os.Remove(path + ".broken")
	}
	return true
}

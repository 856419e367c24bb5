package modlock

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/modkit/modkit/internal/modbuild"
)

// The go command builds no main package in the module cache, so a locked
// mod is built from a copy of its module, kept in Options.CopyDir: its
// files are checked against the lock's zip hash before every use, and the
// copy is made again from the checked module cache when they differ.
//
// Several modhost processes may share Options.CopyDir and want the same
// module version at once. Making a copy holds a lock file beside it,
// <copy>.lock, so one process copies and the others, after waiting, find
// its copy good. A copy is made in a temporary directory and renamed into
// place, so no process sees half a copy; a copy that differs is renamed
// aside before the new one takes its name, never removed in place.

// copyOf returns the copy of the module version in dir (checked against
// the lock), making it when it is missing or differs.
//
// A copy not used for modbuild.RefreshAfter is marked used (its directory's
// modification time) under its lock, which keeps the build cache's trim
// from removing it meanwhile.
func copyOf(e Entry, dir, copyRoot, name string) (string, error) {
	target := filepath.Join(copyRoot, name)
	if fi, err := os.Stat(target); err == nil && time.Since(fi.ModTime()) < modbuild.RefreshAfter && copyGood(e, target) {
		return target, nil
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return "", fmt.Errorf("copy %s: %v", e.String(), err)
	}
	unlock, err := modbuild.LockFile(target + ".lock")
	if err != nil {
		return "", fmt.Errorf("copy %s: lock: %v", e.String(), err)
	}
	defer unlock()
	if copyGood(e, target) { // made by another process while this one waited, or to mark used
		now := time.Now()
		os.Chtimes(target, now, now)
		return target, nil
	}
	if err := makeCopy(e, dir, target); err != nil {
		return "", fmt.Errorf("copy %s: %v", e.String(), err)
	}
	return target, nil
}

// copyGood says whether target holds the module version's files.
func copyGood(e Entry, target string) bool {
	sum, err := dirhash.HashDir(target, e.Module+"@"+e.Version, dirhash.Hash1)
	return err == nil && sum == e.Zip
}

// makeCopy copies dir to a temporary directory beside target, checks it
// and renames it to target, replacing a copy that differs. The caller
// holds target's lock.
func makeCopy(e Entry, dir, target string) error {
	parent := filepath.Dir(target)
	tmp, err := os.MkdirTemp(parent, ".copy-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(dir, tmp); err != nil {
		return err
	}
	if !copyGood(e, tmp) {
		return fmt.Errorf("the files of %s changed while copied", dir)
	}
	if _, err := os.Lstat(target); err == nil {
		// A copy that differs: renamed aside, then removed, so the
		// rename below never meets a directory half removed.
		old, err := os.MkdirTemp(parent, ".old-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(old)
		if err := os.Rename(target, filepath.Join(old, "copy")); err != nil {
			return err
		}
	}
	return os.Rename(tmp, target)
}

// copyTree copies the regular files and directories below src into dst,
// files read-only.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o700)
		case !d.Type().IsRegular():
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o400)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

package modlock

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/mod/sumdb/dirhash"
)

// The go command builds no main package in the module cache, so a locked
// mod is built from a copy of its module, kept in Options.CopyDir: its
// files are checked against the lock's zip hash before every use, and the
// copy is made again from the checked module cache when they differ.

// copyOf returns the copy of the module version in dir (checked against
// the lock), making it when it is missing or differs.
func copyOf(e Entry, dir, copyRoot, name string) (string, error) {
	target := filepath.Join(copyRoot, name)
	if sum, err := dirhash.HashDir(target, e.Module+"@"+e.Version, dirhash.Hash1); err == nil && sum == e.Zip {
		return target, nil
	}
	if err := os.MkdirAll(copyRoot, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(copyRoot, ".copy-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(dir, tmp); err != nil {
		return "", fmt.Errorf("copy %s: %v", e.String(), err)
	}
	if sum, err := dirhash.HashDir(tmp, e.Module+"@"+e.Version, dirhash.Hash1); err != nil || sum != e.Zip {
		return "", fmt.Errorf("copy %s: its files changed while copied", e.String())
	}
	if _, err := os.Stat(target); err == nil {
		// A copy that differs from the module: made again.
		if err := os.RemoveAll(target); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, target); err != nil {
		// Another modhost may have made the copy meanwhile.
		if sum, hashErr := dirhash.HashDir(target, e.Module+"@"+e.Version, dirhash.Hash1); hashErr == nil && sum == e.Zip {
			return target, nil
		}
		return "", err
	}
	return target, nil
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

package modlock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/modkit/modkit/manifest"
)

// ErrMismatch is the error of a mod whose bytes differ from its lock
// entry; test with errors.Is.
var ErrMismatch = errors.New("does not match mods.lock")

// MismatchError says which of a locked mod's hashes differs, and both
// values.
type MismatchError struct {
	// Entry is the locked mod.
	Entry Entry
	// What is "zip", "extracted files", "go.mod" or "manifest".
	What string
	// Where says what was hashed: "as fetched", "in the module cache".
	Where string
	// Got is the hash of the bytes; Want, the lock's.
	Got, Want string
}

func (e *MismatchError) Error() string {
	verb := "hashes"
	if strings.HasSuffix(e.What, "files") {
		verb = "hash"
	}
	return fmt.Sprintf("%s %s: its %s %s to %s, mods.lock has %s", e.Entry.String(), e.Where, e.What, verb, e.Got, e.Want)
}

func (e *MismatchError) Unwrap() error { return ErrMismatch }

// Resolve returns the directories of the locked mods, in the entries'
// order: in copies of their modules in Options.CopyDir, which the go
// command can build. A mod missing from the module cache is fetched; each
// is checked against its entry: the zip's hash the go command recorded, the
// hash of the extracted files, the go.mod's and the manifest's. The first
// difference is a *MismatchError.
func Resolve(ctx context.Context, entries []Entry, opts *Options) ([]string, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	modCache, err := goModCache(ctx, opts)
	if err != nil {
		return nil, err
	}
	if _, err := opts.copyDir(); err != nil {
		return nil, err
	}
	dirs := make([]string, 0, len(entries))
	for _, e := range entries {
		dir, err := resolve(ctx, e, modCache, opts)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, dir)
	}
	return dirs, nil
}

// Verify fetches each locked module again, into an empty module cache, so
// the module proxy and the checksum database are asked anew, and compares
// what comes with the lock; then it checks the module cache as Resolve
// does. It returns every problem.
func Verify(ctx context.Context, entries []Entry, opts *Options) []error {
	var errs []error
	tmp, err := os.MkdirTemp("", "modhost-verify-")
	if err != nil {
		return []error{err}
	}
	defer os.RemoveAll(tmp)
	fresh := &Options{Env: withModCache(opts.env(), tmp), Progress: opts.progress()}
	for _, e := range entries {
		f, err := download(ctx, e.Module, e.Version, fresh)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", e.String(), err))
			continue
		}
		f.ModDir = filepath.Join(f.Dir, filepath.FromSlash(e.Rel()))
		if err := compare(e, f, "as fetched again"); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	modCache, err := goModCache(ctx, opts)
	if err != nil {
		return []error{err}
	}
	for _, e := range entries {
		if _, err := resolve(ctx, e, modCache, opts); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// withModCache returns env with the module cache at dir, writable so that
// it can be removed.
func withModCache(env []string, dir string) []string {
	flags := ""
	var out []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			flags = v
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GOMODCACHE="+dir, "GOFLAGS="+strings.TrimSpace(flags+" -modcacherw"))
}

// resolve checks one locked mod in the module cache, fetching it first
// when missing, and returns its directory.
func resolve(ctx context.Context, e Entry, modCache string, opts *Options) (string, error) {
	escPath, err := module.EscapePath(e.Module)
	if err != nil {
		return "", fmt.Errorf("%s: %v", e.String(), err)
	}
	escVersion, err := module.EscapeVersion(e.Version)
	if err != nil {
		return "", fmt.Errorf("%s: %v", e.String(), err)
	}
	dir := filepath.Join(modCache, escPath+"@"+escVersion)
	dl := filepath.Join(modCache, "cache", "download", escPath, "@v", escVersion)
	zipHash, err := os.ReadFile(dl + ".ziphash")
	if _, statErr := os.Stat(dir); err != nil || statErr != nil {
		f, err := download(ctx, e.Module, e.Version, opts)
		if err != nil {
			return "", fmt.Errorf("%s: %w", e.String(), err)
		}
		f.ModDir = filepath.Join(f.Dir, filepath.FromSlash(e.Rel()))
		if err := compare(e, f, "as fetched"); err != nil {
			return "", err
		}
		dir = f.Dir
		if zipHash, err = os.ReadFile(dl + ".ziphash"); err != nil {
			return "", fmt.Errorf("%s: %v", e.String(), err)
		}
	}
	where := "in the module cache"
	if got := strings.TrimSpace(string(zipHash)); got != e.Zip {
		return "", &MismatchError{Entry: e, What: "zip", Where: where, Got: got, Want: e.Zip}
	}
	got, err := dirhash.HashDir(dir, e.Module+"@"+e.Version, dirhash.Hash1)
	if err != nil {
		return "", fmt.Errorf("%s: %v", e.String(), err)
	}
	if got != e.Zip {
		return "", &MismatchError{Entry: e, What: "extracted files", Where: where + " (" + dir + ")", Got: got, Want: e.Zip}
	}
	if got, err := goModSum(dl + ".mod"); err != nil {
		return "", fmt.Errorf("%s: %v", e.String(), err)
	} else if got != e.GoMod {
		return "", &MismatchError{Entry: e, What: "go.mod", Where: where, Got: got, Want: e.GoMod}
	}
	if err := checkManifest(e, filepath.Join(dir, filepath.FromSlash(e.Rel())), where); err != nil {
		return "", err
	}
	copyRoot, _ := opts.copyDir()
	copied, err := copyOf(e, dir, copyRoot, escPath+"@"+escVersion)
	if err != nil {
		return "", err
	}
	return filepath.Join(copied, filepath.FromSlash(e.Rel())), nil
}

// compare checks a fetched module version against its lock entry.
func compare(e Entry, f *Fetched, where string) error {
	if f.Zip != e.Zip {
		return &MismatchError{Entry: e, What: "zip", Where: where, Got: f.Zip, Want: e.Zip}
	}
	if f.GoMod != e.GoMod {
		return &MismatchError{Entry: e, What: "go.mod", Where: where, Got: f.GoMod, Want: e.GoMod}
	}
	return checkManifest(e, f.ModDir, where)
}

// checkManifest checks the manifest in modDir against the entry: its hash,
// then the permissions it declares against the entry's allow lines.
func checkManifest(e Entry, modDir, where string) error {
	got, err := manifestSum(modDir)
	if err != nil {
		return fmt.Errorf("%s: %v", e.String(), err)
	}
	if got != e.Manifest {
		return &MismatchError{Entry: e, What: "manifest", Where: where, Got: got, Want: e.Manifest}
	}
	if e.Permissions == nil {
		return nil
	}
	m, err := manifest.Load(modDir)
	if err != nil {
		return fmt.Errorf("%s: %v", e.String(), err)
	}
	return checkAllowed(e, m.Permissions)
}

// goModSum returns the h1: hash of a go.mod file, as go.sum records it.
func goModSum(path string) (string, error) {
	return dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) { return os.Open(path) })
}

// manifestSum returns "sha256:" and the hex SHA-256 of the mod's
// mod.manifest.json.
func manifestSum(modDir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(modDir, "mod.manifest.json"))
	if err != nil {
		return "", fmt.Errorf("no mod here: %v", err)
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// goModCache returns the go command's GOMODCACHE.
func goModCache(ctx context.Context, opts *Options) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOMODCACHE")
	cmd.Env = opts.env()
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", errors.New("the go command is not installed or not on PATH")
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("go env GOMODCACHE: %v: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("go env GOMODCACHE: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", errors.New("go env GOMODCACHE is empty")
	}
	return dir, nil
}

// Compare checks a fetched mod against the lock entry of the same version:
// a *MismatchError names the hash that differs.
func Compare(e Entry, f *Fetched) error { return compare(e, f, "as fetched") }

package modlock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/modkit/modkit/manifest"
)

// Options configure the go command modlock runs. A nil *Options means
// defaults.
type Options struct {
	// Env is the go command's environment. Default: os.Environ().
	Env []string
	// Progress receives the go command's download lines ("go: downloading
	// …"). Default: discard.
	Progress io.Writer
	// CopyDir keeps the copies of locked modules that mods are built from,
	// as the go command builds nothing in the module cache. Default:
	// <os.UserCacheDir>/modkit/mods.
	CopyDir string
}

func (o *Options) copyDir() (string, error) {
	if o != nil && o.CopyDir != "" {
		return o.CopyDir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the copies of locked mods: %w", err)
	}
	return filepath.Join(dir, "modkit", "mods"), nil
}

func (o *Options) env() []string {
	if o == nil || o.Env == nil {
		return os.Environ()
	}
	return o.Env
}

func (o *Options) progress() io.Writer {
	if o == nil || o.Progress == nil {
		return io.Discard
	}
	return o.Progress
}

// Fetched is a module version in the module cache, holding a mod.
type Fetched struct {
	// Module and Version name the module version; Version is a version,
	// never a query like latest.
	Module, Version string
	// Mod is the import path of the mod's package.
	Mod string
	// Dir is the module's directory in the module cache; ModDir, the mod
	// package's.
	Dir, ModDir string
	// Zip and GoMod are the h1: hashes the go command verified.
	Zip, GoMod string
}

// Entry returns the lock entry of the fetched mod, with the hash of its
// manifest and the permissions it declares.
func (f *Fetched) Entry() (Entry, error) {
	sum, err := manifestSum(f.ModDir)
	if err != nil {
		return Entry{}, err
	}
	m, err := f.Manifest()
	if err != nil {
		return Entry{}, err
	}
	return Entry{Mod: f.Mod, Module: f.Module, Version: f.Version, Zip: f.Zip, GoMod: f.GoMod, Manifest: sum, Permissions: canonical(m.Permissions)}, nil
}

// Manifest reads and decodes the fetched mod's manifest.
func (f *Fetched) Manifest() (*manifest.Manifest, error) {
	return manifest.Load(f.ModDir)
}

// Download fetches the module holding the package pkg at version, a
// version or a query such as "latest", with go mod download: the module
// proxy, the checksum database and the module cache are the go command's.
// The module is the longest prefix of pkg that has the version; the
// package's directory must hold a mod.manifest.json.
func Download(ctx context.Context, pkg, version string, opts *Options) (*Fetched, error) {
	var firstErr error
	for mod := pkg; ; {
		f, err := download(ctx, mod, version, opts)
		if err == nil {
			f.Mod = pkg
			rel := strings.TrimPrefix(strings.TrimPrefix(pkg, mod), "/")
			f.ModDir = filepath.Join(f.Dir, filepath.FromSlash(rel))
			if _, err := os.Stat(filepath.Join(f.ModDir, "mod.manifest.json")); err != nil {
				if rel == "" {
					return nil, fmt.Errorf("%s@%s holds no mod: its root has no mod.manifest.json; name the mod's package, MODULE/PACKAGE@VERSION", f.Module, f.Version)
				}
				return nil, fmt.Errorf("%s@%s holds no mod at %s: no mod.manifest.json there", f.Module, f.Version, rel)
			}
			return f, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if firstErr == nil {
			firstErr = err
		}
		i := strings.LastIndex(mod, "/")
		if i < 0 {
			break
		}
		mod = mod[:i]
	}
	if strings.Contains(pkg, "/") {
		return nil, fmt.Errorf("%w (nor does a module above it have version %s)", firstErr, version)
	}
	return nil, firstErr
}

// download runs go mod download -json module@version in an empty
// directory, outside any module, so the checksum database verifies it.
func download(ctx context.Context, module, version string, opts *Options) (*Fetched, error) {
	dir, err := os.MkdirTemp("", "modhost-get-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir = dir
	cmd.Env = append(opts.env(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = io.MultiWriter(&stderr, opts.progress())
	out, runErr := cmd.Output()
	var info struct {
		Path, Version, Error, Dir, Sum, GoModSum string
	}
	if err := json.Unmarshal(out, &info); err != nil {
		if runErr == nil {
			runErr = err
		}
		if errors.Is(runErr, exec.ErrNotFound) {
			return nil, errors.New("the go command is not installed or not on PATH")
		}
		return nil, fmt.Errorf("go mod download %s@%s: %v%s", module, version, runErr, indent(stderr.String()))
	}
	if info.Error != "" {
		return nil, fmt.Errorf("go mod download: %s", strings.TrimSpace(info.Error))
	}
	if runErr != nil {
		return nil, fmt.Errorf("go mod download %s@%s: %v%s", module, version, runErr, indent(stderr.String()))
	}
	if info.Dir == "" || info.Sum == "" || info.GoModSum == "" {
		return nil, fmt.Errorf("go mod download %s@%s: no directory or hashes in its output", module, version)
	}
	return &Fetched{Module: info.Path, Version: info.Version, Dir: info.Dir, Zip: info.Sum, GoMod: info.GoModSum}, nil
}

// indent returns a command's output on lines of their own after a colon,
// or "".
func indent(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	return ":\n\t" + strings.ReplaceAll(s, "\n", "\n\t")
}

// Latest returns the latest version of a module, fetching it.
func Latest(ctx context.Context, module string, opts *Options) (string, error) {
	f, err := download(ctx, module, "latest", opts)
	if err != nil {
		return "", err
	}
	return f.Version, nil
}

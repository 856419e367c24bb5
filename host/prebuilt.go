package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"

	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/internal/protocol"
)

// PrebuildOptions configure [Host.Prebuild]. A nil *PrebuildOptions means
// defaults.
type PrebuildOptions struct {
	// Locked are the mods pinned in mods.lock, whose directories are
	// copies of their modules under Options.CacheDir: the cache records
	// their module versions, and where the copies are within it.
	Locked []LockedMod
}

// LockedMod is a mod installed from a module version.
type LockedMod struct {
	// Dir is the mod's directory, as given to [Load].
	Dir string
	// Module and Version are the module version it comes from.
	Module, Version string
}

// reasonPrebuilt is the reason of a mod a prebuilt cache holds no current
// build of.
const reasonPrebuilt = "the prebuilt cache holds no current build of it"

// Prebuild builds every loaded mod into [Options.CacheDir], starting none,
// and makes the cache prebuilt: a host given it as its cache, read-only
// and with no go command, runs the mods from it and never builds. The go
// command builds for its GOOS and GOARCH (set them in the environment to
// build for another platform). A mod that does not load, has stale
// generated files or does not build is an error, each joined in the one
// returned; the cache is then left as it was.
func (h *Host) Prebuild(ctx context.Context, opts *PrebuildOptions) error {
	stop := context.AfterFunc(ctx, func() { h.Close() })
	defer stop()
	locked := map[string]LockedMod{}
	if opts != nil {
		for _, l := range opts.Locked {
			locked[l.Dir] = l
		}
	}
	idx := &modbuild.Index{Protocol: protocol.Version}
	var errs []error
	for _, e := range h.loadErrs {
		errs = append(errs, e.Err)
	}
	for _, m := range h.mods {
		p, err := m.prebuild(idx, locked[m.given])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		idx.Mods = append(idx.Mods, *p)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if err := modbuild.WriteIndex(h.opts.CacheDir, idx); err != nil {
		return modbuild.CacheError(err)
	}
	return nil
}

// prebuild builds the mod and returns its entry in idx, whose platform it
// sets or checks.
func (m *mod) prebuild(idx *modbuild.Index, l LockedMod) (*modbuild.Prebuilt, error) {
	if m.stale != nil {
		return nil, m.stale.Err
	}
	b, err := m.buildBinary()
	if err != nil {
		var me *ModError
		if errors.As(err, &me) {
			return nil, me.Err
		}
		return nil, err
	}
	env, err := modbuild.GoEnv(m.dir)
	if err != nil {
		return nil, err
	}
	if idx.GOOS == "" {
		idx.GOOS, idx.GOARCH = env["GOOS"], env["GOARCH"]
	} else if idx.GOOS != env["GOOS"] || idx.GOARCH != env["GOARCH"] {
		return nil, fmt.Errorf("mod %s (%s): the go command builds it for %s/%s, and the mods before it for %s/%s; one cache serves one platform",
			m.man.ID, m.given, env["GOOS"], env["GOARCH"], idx.GOOS, idx.GOARCH)
	}
	r, err := modbuild.ReadRecord(b.record)
	if err != nil || r == nil {
		return nil, fmt.Errorf("mod %s (%s): its build record %s: %v", m.man.ID, m.given, b.record, err)
	}
	p := modbuild.NewPrebuilt(m.man.ID, m.man.GoPackage, m.man.SourceHash, m.dir, b.record, r)
	if l.Module != "" {
		rel, err := filepath.Rel(m.h.opts.CacheDir, m.dir)
		if err != nil || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("mod %s (%s): a locked mod's copy is not in the cache %s", m.man.ID, m.given, m.h.opts.CacheDir)
		}
		p.Module, p.Version, p.Dir = l.Module, l.Version, filepath.ToSlash(rel)
	}
	return &p, nil
}

// prebuiltBinary returns the mod's binary from the prebuilt cache idx
// indexes (or the error err of reading the index), checked against the
// index and its record without the go command: the cache's platform and
// protocol, the mod's source hash and package files, the record and the
// binary's permissions. go-plugin checks the binary's checksum at start.
func (m *mod) prebuiltBinary(idx *modbuild.Index, err error) (*built, error) {
	root := m.h.opts.CacheDir
	if err == nil {
		err = idx.Check(root, runtime.GOOS, runtime.GOARCH, protocol.Version)
	}
	if err != nil {
		return nil, m.unavailable(reasonCache, err)
	}
	again := func(format string, args ...any) (*built, error) {
		return nil, m.unavailable(reasonPrebuilt, fmt.Errorf("mod %s (%s): %s; run modhost build -o %s again with this mod among --mods or in mods.lock (a prebuilt cache is never built into)",
			m.man.ID, m.given, fmt.Sprintf(format, args...), root))
	}
	p := idx.Mod(m.man.ID)
	switch {
	case p == nil:
		return again("the prebuilt cache %s holds no build of it", root)
	case p.SourceHash != m.man.SourceHash:
		return again("the prebuilt cache %s holds a build of other sources (source hash %s; its manifest has %s)", root, p.SourceHash, m.man.SourceHash)
	case p.Digest(m.dir) != p.PackageDigest:
		return again("its package's files in %s differ from those the prebuilt cache %s was built from", m.dir, root)
	}
	recPath := filepath.Join(root, "rec", p.Record)
	r, err := modbuild.ReadRecord(recPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return again("the prebuilt cache %s has no build record %s", root, recPath)
	case err != nil:
		return nil, m.unavailable(reasonCache, err)
	case r == nil || r.Binary == "":
		return again("its build record %s names no binary", recPath)
	}
	b := &built{path: filepath.Join(root, "bin", r.Binary), record: recPath, used: r.Used, prebuilt: true}
	if err := modbuild.CheckPrivate(b.path, false); errors.Is(err, fs.ErrNotExist) {
		return again("the prebuilt cache %s has no binary %s", root, b.path)
	} else if err != nil {
		return nil, m.unavailable(reasonCache, err)
	}
	if b.sum, err = hex.DecodeString(r.Sum); err != nil || len(b.sum) != sha256.Size {
		return again("its build record %s has no valid checksum", recPath)
	}
	return b, nil
}

// badPrebuilt is the error of a prebuilt binary that failed an identity
// check at start: it is never evicted, as the cache is not the host's to
// write.
func (m *mod) badPrebuilt(err error) *ModError {
	return m.unavailable(reasonPrebuilt, fmt.Errorf("%w; run modhost build -o %s again (a prebuilt cache is never built into)", err, m.h.opts.CacheDir))
}

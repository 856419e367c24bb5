package modbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A prebuilt cache is one `modhost build` made: every mod a host will load
// built ahead of time, for a host that has no go command. Its root holds
// IndexName, which names each mod's record and says what the binaries
// were built for. A host that finds the index never builds, trims or
// writes: it takes each mod's record from the index, checks the mod
// against it (its manifest's source hash and its package's files) and the
// binary against the record's checksum, and reports anything missing or
// stale as a cache to build again.

// IndexName is the file, in a prebuilt cache's root, that makes it
// prebuilt.
const IndexName = "prebuilt.json"

// Index is what a prebuilt cache was built for, and its mods.
type Index struct {
	// GOOS and GOARCH are the platform the binaries run on.
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	// Protocol is the modkit protocol version of the modhost that built
	// the cache.
	Protocol int `json:"protocol"`
	// Mods are the mods built, in load order.
	Mods []Prebuilt `json:"mods"`
}

// Prebuilt is one mod of a prebuilt cache.
type Prebuilt struct {
	// ID is the mod's id; GoPackage its import path.
	ID        string `json:"id"`
	GoPackage string `json:"goPackage"`
	// SourceHash is the manifest's source hash when the mod was built.
	SourceHash string `json:"sourceHash"`
	// Module and Version name the module version of a mod mods.lock
	// pins; Dir is then its copy's directory, relative to the cache's
	// root.
	Module  string `json:"module,omitempty"`
	Version string `json:"version,omitempty"`
	Dir     string `json:"dir,omitempty"`
	// Record is the record's file name in rec/.
	Record string `json:"record"`
	// Package lists the mod's own package files (its Dir is empty: they
	// are read relative to the mod's directory), and PackageDigest hashes
	// them as they were built.
	Package       Input  `json:"package"`
	PackageDigest string `json:"packageDigest"`
}

// NewPrebuilt returns the index entry of mod id, whose import path is
// goPackage and manifest's source hash sourceHash, built in dir with the
// record r, filed at recPath.
func NewPrebuilt(id, goPackage, sourceHash, dir, recPath string, r *Record) Prebuilt {
	p := Prebuilt{ID: id, GoPackage: goPackage, SourceHash: sourceHash, Record: filepath.Base(recPath)}
	for _, in := range r.Inputs {
		if in.Dir == dir {
			p.Package = in
		}
	}
	p.Package.Dir = ""
	p.PackageDigest = p.Digest(dir)
	return p
}

// Digest hashes the mod's package files in dir as they are now; the
// directory's path is no part of it.
func (p *Prebuilt) Digest(dir string) string {
	in := p.Package
	in.Dir = dir
	h := sha256.New()
	writeDigest(h, in, "")
	return hex.EncodeToString(h.Sum(nil))
}

// prebuilt reports whether the cache is prebuilt.
func (c *Cache) prebuilt() bool {
	_, err := os.Lstat(filepath.Join(c.root, IndexName))
	return err == nil
}

// ReadIndex reads the index of the cache at root; nil and nil when the
// cache is not prebuilt.
func ReadIndex(root string) (*Index, error) {
	path := filepath.Join(root, IndexName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("build cache: %v", err)
	}
	// A directory missing is a binary or record missing, said per mod.
	for _, dir := range []string{root, filepath.Join(root, "bin"), filepath.Join(root, "rec")} {
		if err := CheckPrivate(dir, true); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if err := CheckPrivate(path, false); err != nil {
		return nil, err
	}
	var idx Index
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("build cache: %s: %v; run modhost build again", path, err)
	}
	return &idx, nil
}

// WriteIndex writes idx into the cache at root, replacing the one there.
func WriteIndex(root string, idx *Index) error {
	data, err := json.MarshalIndent(idx, "", "\t")
	if err != nil {
		return err
	}
	return writeReadOnly(filepath.Join(root, IndexName), append(data, '\n'))
}

// Check refuses a cache built for another platform or protocol than
// goos/goarch and protocol, naming what differs.
func (idx *Index) Check(root, goos, goarch string, protocol int) error {
	var diffs []string
	if idx.GOOS != goos || idx.GOARCH != goarch {
		diffs = append(diffs, fmt.Sprintf("it was built for %s/%s, and this host runs on %s/%s", idx.GOOS, idx.GOARCH, goos, goarch))
	}
	if idx.Protocol != protocol {
		diffs = append(diffs, fmt.Sprintf("it was built by a modhost speaking modkit protocol %d, and this host speaks protocol %d", idx.Protocol, protocol))
	}
	if len(diffs) == 0 {
		return nil
	}
	return fmt.Errorf("build cache: %s was made by modhost build for another host: %s; run this host's modhost build --goos %s --goarch %s -o %s",
		root, strings.Join(diffs, "; "), goos, goarch, root)
}

// Mod returns the entry of the mod id; nil when the cache holds none.
func (idx *Index) Mod(id string) *Prebuilt {
	for i := range idx.Mods {
		if idx.Mods[i].ID == id {
			return &idx.Mods[i]
		}
	}
	return nil
}

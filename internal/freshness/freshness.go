package freshness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"go/format"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modkit/modkit/internal/filestamp"
	"github.com/modkit/modkit/internal/quickread"
)

// GeneratedFile is the name of the Go file modgen writes.
const GeneratedFile = "zz_generated.modgen.go"

// ErrStale is the condition of a mod whose generated files do not match its
// sources; errors from [Check] wrap it.
var ErrStale = errors.New("generated files are out of date")

// ErrNoGoFiles: the directory holds no Go files to build, so it is not a mod
// package.
var ErrNoGoFiles = errors.New("no Go files")

// Files returns "sha256:<hex>" over the given Go files, leaving out
// GeneratedFile, and the images beside them (IsImage: a mod's icons,
// which the manifest embeds): for each file in base-name order, its base
// name, a NUL byte, its content (a Go file's as gofmt formats it) and a
// NUL byte. Unreadable files are skipped.
func Files(paths []string) string {
	var files []file
	dirs := map[string]bool{}
	for _, f := range paths {
		dirs[filepath.Dir(f)] = true
		if filepath.Base(f) == GeneratedFile {
			continue
		}
		if data, err := os.ReadFile(f); err == nil {
			files = append(files, file{filepath.Base(f), data})
		}
	}
	for dir := range dirs {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !e.IsDir() && IsImage(e.Name()) {
				if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
					files = append(files, file{e.Name(), data})
				}
			}
		}
	}
	return hash(files)
}

// IsImage reports whether a file of a mod's directory is an image its
// source hash covers, by its name: .png, .svg, .jpg, .jpeg or .webp.
func IsImage(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".svg", ".jpg", ".jpeg", ".webp":
		return true
	}
	return false
}

// file is a Go file's base name and content.
type file struct {
	name string
	data []byte
}

// hash is the Files hash of files already read.
func hash(files []file) string {
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(f.name))
		h.Write([]byte{0})
		if strings.HasSuffix(f.name, ".go") {
			h.Write(formatted(f.data))
		} else {
			h.Write(f.data)
		}
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// formatted is a Go file as gofmt writes it, so that formatting the
// sources leaves their hash as it was (a formatted file is its own); a
// file gofmt cannot parse is hashed as it is.
func formatted(data []byte) []byte {
	if f, err := format.Source(data); err == nil {
		return f
	}
	return data
}

// Dir returns the [Files] hash of the package in dir: its Go files that
// match the default build context, without tests, and its images. It
// returns ErrNoGoFiles when there are no Go files besides GeneratedFile.
//
// Answers are kept by directory with the size and modification time of
// each Go file, and reused while those stay the same, as the go command's
// build cache does: a file rewritten with the same size and its old
// modification time put back is not seen. A file modified less than
// [settle] before the check is read again at the next, since a second write
// within the file system's timestamp granularity would leave its time as it
// was.
func Dir(dir string) (string, error) { return DirIn("", dir) }

// DirIn is Dir for a host whose cache is at root ("" for none): an answer
// is also kept in root's fresh directory, with a print of the directory's
// and its files' identities (filestamp), so that a new process takes it
// without reading and formatting the files while the print holds. It is
// kept only when every one is older than settle, and the same before and
// after the files were read.
func DirIn(root, dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	key := dir
	if abs, err := filepath.Abs(dir); err == nil {
		key = abs
	}
	stamps, settled := goFileStamps(entries)
	if c, ok := dirCache.Load(key); ok && slices.Equal(c.(*dirAnswer).stamps, stamps) {
		return c.(*dirAnswer).hash, nil
	}
	var print string
	if root != "" && settled {
		print = dirPrint(key, stamps)
		var kept keptAnswer
		if print != "" && filestamp.Load(filepath.Join(root, "fresh"), key, &kept) && kept.Print == print && kept.Hash != "" {
			dirCache.Store(key, &dirAnswer{stamps: stamps, hash: kept.Hash})
			return kept.Hash, nil
		}
	}
	var files []file
	goFiles := 0
	for _, st := range stamps {
		name := st.name
		data, err := quickread.File(filepath.Join(dir, name), st.size)
		if err != nil {
			continue
		}
		if IsImage(name) {
			files = append(files, file{name, data})
			continue
		}
		if constrained(name, data) {
			if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
				continue
			}
		}
		files = append(files, file{name, data})
		goFiles++
	}
	if goFiles == 0 {
		return "", ErrNoGoFiles
	}
	h := hash(files)
	if settled {
		dirCache.Store(key, &dirAnswer{stamps: stamps, hash: h})
	} else {
		dirCache.Delete(key)
	}
	if print != "" && dirPrint(key, stamps) == print {
		filestamp.Store(filepath.Join(root, "fresh"), key, &keptAnswer{Print: print, Hash: h})
	}
	return h, nil
}

// keptAnswer is a Dir answer kept in a host's cache.
type keptAnswer struct {
	Print string `json:"print"`
	Hash  string `json:"hash"`
}

// printVersion changes when what Dir hashes does.
const printVersion = "modkit sources 1"

// dirPrint hashes what Dir's answer for dir depends on: the Go release
// (gofmt's output), the build context that picks constrained files, and
// the identities of dir and of its files named in stamps; "" when one
// cannot be had, or one changed within settle.
func dirPrint(dir string, stamps []stamp) string {
	h := sha256.New()
	c := &build.Default
	fmt.Fprintf(h, "%s\x00%s\x00%s %s %v %q %q %q\x00", printVersion, runtime.Version(), c.GOOS, c.GOARCH, c.CgoEnabled, c.BuildTags, c.ToolTags, c.ReleaseTags)
	now := time.Now()
	paths := []string{dir}
	for _, st := range stamps {
		paths = append(paths, filepath.Join(dir, st.name))
	}
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil {
			return ""
		}
		id, changed, ok := filestamp.Of(fi)
		if !ok || now.Sub(fi.ModTime()) < settle || now.Sub(changed) < settle {
			return ""
		}
		fmt.Fprintf(h, "%s %s\x00", p, id)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// settle is how old every file must be for Dir to keep its answer (a
// variable for tests).
var settle = 2 * time.Second

// dirCache holds Dir's answers by absolute directory.
var dirCache sync.Map // string -> *dirAnswer

// dirAnswer is one hash Dir computed, with the files it read.
type dirAnswer struct {
	stamps []stamp
	hash   string
}

// stamp is what Dir compares of a file to reuse an answer.
type stamp struct {
	name    string
	size    int64
	modTime int64 // UnixNano
}

// goFileStamps returns the stamps of the Go files Dir hashes, before build
// constraints, and of its images, in name order; settled reports that every one is older than
// settle. A symbolic link, or a file that cannot be examined, makes the
// answer unsettled.
func goFileStamps(entries []os.DirEntry) (stamps []stamp, settled bool) {
	settled = true
	now := time.Now()
	for _, e := range entries {
		name := e.Name()
		goFile := strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && name != GeneratedFile
		if e.IsDir() || !goFile && !IsImage(name) {
			continue
		}
		st := stamp{name: name}
		if e.Type()&os.ModeSymlink != 0 {
			settled = false // its target's changes would not show
		} else if info, err := e.Info(); err == nil {
			st.size, st.modTime = info.Size(), info.ModTime().UnixNano()
			settled = settled && now.Sub(info.ModTime()) >= settle
		} else {
			settled = false
		}
		stamps = append(stamps, st)
	}
	return stamps, settled
}

// constrained reports whether a Go file may be left out of the build by
// its name (a _GOOS or _GOARCH suffix, a leading _ or .), a build
// constraint or cgo; only then is go/build asked, which reads it again.
func constrained(name string, data []byte) bool {
	return strings.Contains(strings.TrimSuffix(name, ".go"), "_") || strings.HasPrefix(name, ".") ||
		bytes.Contains(data, []byte("//go:build")) || bytes.Contains(data, []byte("+build")) ||
		bytes.Contains(data, []byte(`"C"`))
}

// Check compares the sources in dir with recorded, the sourceHash of the
// mod's manifest. A mismatch is an error wrapping ErrStale that reads
// "mod ID (DIR): generated files are out of date; run go generate in DIR".
func Check(dir, id, recorded string) error { return CheckIn("", dir, id, recorded) }

// CheckIn is Check for a host whose cache is at root (see DirIn).
func CheckIn(root, dir, id, recorded string) error {
	got, err := DirIn(root, dir)
	if errors.Is(err, ErrNoGoFiles) {
		return fmt.Errorf("mod %s (%s): not a Go package (%w); a mod directory holds the mod's package", id, dir, err)
	}
	if err != nil {
		return fmt.Errorf("mod %s (%s): %w", id, dir, err)
	}
	if got != recorded {
		return fmt.Errorf("mod %s (%s): %w; run go generate in %s", id, dir, ErrStale, dir)
	}
	return nil
}

// checked caches CheckWorkingDir's answers by manifest.
var checked sync.Map // manifest JSON -> error

// CheckWorkingDir checks the mod whose manifest is embedded in its
// generated code (manifestJSON) against the sources in the current
// directory, when that directory holds the same mod: go test runs a
// package's tests there. It checks nothing elsewhere, and each manifest
// once per process.
func CheckWorkingDir(manifestJSON []byte) error {
	if err, ok := checked.Load(string(manifestJSON)); ok {
		err, _ := err.(error)
		return err
	}
	err := checkWorkingDir(manifestJSON)
	checked.Store(string(manifestJSON), err)
	return err
}

// identity is the part of a manifest that names a mod and its sources.
type identity struct {
	ID         string `json:"id"`
	GoPackage  string `json:"goPackage"`
	SourceHash string `json:"sourceHash"`
}

func checkWorkingDir(manifestJSON []byte) error {
	var embedded, here identity
	if json.Unmarshal(manifestJSON, &embedded) != nil {
		return nil
	}
	data, err := os.ReadFile("mod.manifest.json")
	if err != nil || json.Unmarshal(data, &here) != nil || here.ID != embedded.ID || here.GoPackage != embedded.GoPackage {
		return nil // not the mod's own package
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil
	}
	return Check(dir, embedded.ID, embedded.SourceHash)
}

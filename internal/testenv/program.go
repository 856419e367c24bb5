package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/modbuild"
)

// Modhost returns the path of cmd/modhost built from this checkout: the
// binary $MODKIT_MODHOST names when set, else [Program] of cmd/modhost.
func Modhost(t testing.TB) string {
	t.Helper()
	path, err := ModhostPath()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// ModhostPath is [Modhost] for callers without a testing.TB.
func ModhostPath() (string, error) {
	if p := os.Getenv("MODKIT_MODHOST"); p != "" {
		return p, nil
	}
	return ProgramPath("github.com/modkit/modkit/cmd/modhost")
}

// Program returns the path of the main package pkg of this module (an
// import path) built from this checkout, from the [ModCache] shared by
// every package's tests and across runs, keyed by a hash of the
// checkout's sources and the build settings. It is built once per change
// of the sources, whichever package's test asks first; a lock file keeps
// test binaries that run at once from building it twice.
func Program(t testing.TB, pkg string) string {
	t.Helper()
	path, err := ProgramPath(pkg)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// ProgramPath is [Program] for callers without a testing.TB.
func ProgramPath(pkg string) (string, error) {
	programs.mu.Lock()
	p, ok := programs.m[pkg]
	if !ok {
		p = &program{}
		programs.m[pkg] = p
	}
	programs.mu.Unlock()
	p.once.Do(func() { p.path, p.err = buildProgram(pkg) })
	return p.path, p.err
}

// programs are the programs this test process has asked for, by package.
var programs = struct {
	mu sync.Mutex
	m  map[string]*program
}{m: map[string]*program{}}

type program struct {
	once sync.Once
	path string
	err  error
}

// keyOnce hashes the checkout once per test process.
var keyOnce = sync.OnceValues(func() (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	key, err := sourceKey(root)
	if err != nil {
		return "", fmt.Errorf("hash the sources of this checkout: %w", err)
	}
	return key, nil
})

// programUnused is how long a cached program may go unused before a build
// of another removes it.
const programUnused = 24 * time.Hour

func buildProgram(pkg string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	cache, err := ModCache()
	if err != nil {
		return "", err
	}
	key, err := keyOnce()
	if err != nil {
		return "", err
	}
	name := path.Base(pkg)
	dir := filepath.Join(cache, "programs-"+key)
	bin := filepath.Join(dir, name+modbuild.ExeSuffix)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	unlock, err := modbuild.LockFile(filepath.Join(dir, name+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(bin); err == nil {
		now := time.Now()
		os.Chtimes(dir, now, now)
		return bin, nil
	}
	// Built beside the binary and renamed into place, so no test runs a
	// binary half written.
	tmp := bin + ".tmp"
	cmd := exec.Command("go", "build", "-o", tmp, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS="+leanGOFLAGS(os.Getenv("GOFLAGS")))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build %s: %v\n%s", pkg, err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	prunePrograms(cache, dir)
	return bin, nil
}

// prunePrograms removes the cached programs of other checkouts than keep
// that no test used for programUnused (and those of the older layout,
// one modhost per directory).
func prunePrograms(cache, keep string) {
	old, _ := filepath.Glob(filepath.Join(cache, "programs-*"))
	older, _ := filepath.Glob(filepath.Join(cache, "modhost-*"))
	for _, dir := range append(old, older...) {
		if fi, err := os.Stat(dir); err == nil && dir != keep && time.Since(fi.ModTime()) > programUnused {
			os.RemoveAll(dir)
		}
	}
}

// sourceKey hashes what a build of a program from root reads: the go
// command's build settings and every file of the checkout but tests,
// testdata and the git directory. It hashes more than one program needs
// (other commands, the examples), which costs a build now and then, never
// a stale binary.
func sourceKey(root string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "programs %s %s/%s\x00", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	// Every test process builds with the flags of LeanLinks, whether it
	// called it or not, so that they share one build.
	fmt.Fprintf(h, "GOFLAGS=%s\x00", leanGOFLAGS(os.Getenv("GOFLAGS")))
	for _, v := range []string{"GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOAMD64", "GOARM64", "GOTOOLCHAIN", "CC", "CGO_CFLAGS", "CGO_LDFLAGS"} {
		fmt.Fprintf(h, "%s=%s\x00", v, os.Getenv(v))
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, "_test.go") || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "file %s\x00", filepath.ToSlash(rel))
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		n, err := io.Copy(h, f)
		fmt.Fprintf(h, "\x00%d\x00", n)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/modbuild"
)

// Modhost returns the path of cmd/modhost built from this checkout: the
// binary $MODKIT_MODHOST names when set, else one from the [ModCache]
// shared by every package's tests and across runs, keyed by a hash of the
// checkout's sources and the build settings. It is built once per change
// of the sources, whichever package's test asks first; a lock file keeps
// test binaries that run at once from building it twice.
func Modhost(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("MODKIT_MODHOST"); p != "" {
		return p
	}
	modhostOnce.Do(func() { modhostPath, modhostErr = buildModhost() })
	if modhostErr != nil {
		t.Fatal(modhostErr)
	}
	return modhostPath
}

var (
	modhostOnce sync.Once
	modhostPath string
	modhostErr  error
)

// modhostUnused is how long a cached modhost may go unused before a build
// of another removes it.
const modhostUnused = 24 * time.Hour

func buildModhost() (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	cache, err := ModCache()
	if err != nil {
		return "", err
	}
	key, err := sourceKey(root)
	if err != nil {
		return "", fmt.Errorf("hash the sources of modhost: %w", err)
	}
	dir := filepath.Join(cache, "modhost-"+key)
	bin := filepath.Join(dir, "modhost"+modbuild.ExeSuffix)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	unlock, err := modbuild.LockFile(filepath.Join(dir, "lock"))
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
	cmd := exec.Command("go", "build", "-o", tmp, "github.com/modkit/modkit/cmd/modhost")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build modhost: %v\n%s", err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	pruneModhosts(cache, dir)
	return bin, nil
}

// pruneModhosts removes the cached modhost binaries other than keep that
// no test used for modhostUnused.
func pruneModhosts(cache, keep string) {
	old, _ := filepath.Glob(filepath.Join(cache, "modhost-*"))
	for _, dir := range old {
		if fi, err := os.Stat(dir); err == nil && dir != keep && time.Since(fi.ModTime()) > modhostUnused {
			os.RemoveAll(dir)
		}
	}
}

// sourceKey hashes what a build of modhost from root reads: the go
// command's build settings and every file of the checkout but tests,
// testdata and the git directory. It hashes more than modhost needs (other
// commands, the examples), which costs a build now and then, never a
// stale binary.
func sourceKey(root string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "modhost %s %s/%s\x00", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, v := range []string{"GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOAMD64", "GOARM64", "GOTOOLCHAIN", "CC", "CGO_CFLAGS", "CGO_LDFLAGS"} {
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

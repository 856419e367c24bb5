package modproxytest

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/sumdb/note"
	modzip "golang.org/x/mod/zip"
)

// ModkitPath is modkit's module path.
const ModkitPath = "github.com/modkit/modkit"

// Proxy is a module proxy in a directory and a checksum database serving
// on loopback. Its methods fail the test on error.
type Proxy struct {
	// Dir is the proxy's directory, laid out as GOPROXY=file://Dir wants.
	Dir string
	// Root is this checkout.
	Root string

	key string // the database's verifier key
	url string
	db  *sumDB
}

// New starts a checksum database on loopback, stopped at cleanup, and
// makes an empty proxy directory. root is the directory of this checkout.
// The databases of one process sign with one key: proxies given the same
// modules in the same order serve the same signed tree, so a module cache
// one filled can be read by a go command pointed at another.
func New(t T, root string) *Proxy {
	t.Helper()
	k, err := signingKey()
	if err != nil {
		t.Fatal(err)
	}
	signer, err := note.NewSigner(k.skey)
	if err != nil {
		t.Fatal(err)
	}
	db := &sumDB{signer: signer, index: map[string]int64{}}
	srv := httptest.NewServer(sumdb.NewServer(db))
	t.Cleanup(srv.Close)
	return &Proxy{Dir: t.TempDir(), Root: root, key: k.vkey, url: srv.URL, db: db}
}

// signingKey is the checksum databases' key pair, made once per process.
var signingKey = sync.OnceValues(func() (struct{ skey, vkey string }, error) {
	skey, vkey, err := note.GenerateKey(rand.Reader, "modkit.test")
	return struct{ skey, vkey string }{skey, vkey}, err
})

// Env returns the go command's settings for a test of the proxy, as
// KEY=value: the proxy, then the module cache the tests run with, as
// GOPROXY; the database as GOSUMDB; a new GOPATH and module cache in
// work, and the build cache the tests run with.
func (p *Proxy) Env(t T, work string) []string {
	t.Helper()
	vars := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOROOT"} {
		v, err := goEnv(k)
		if err != nil {
			t.Fatal(err)
		}
		vars[k] = v
	}
	return []string{
		"GOPROXY=" + fileURL(p.Dir) + "," + fileURL(filepath.Join(vars["GOMODCACHE"], "cache", "download")),
		"GOSUMDB=" + p.key + " " + p.url,
		"GONOSUMDB=", "GONOSUMCHECK=", "GOPRIVATE=", "GONOPROXY=", "GOINSECURE=",
		"GOCACHE=" + vars["GOCACHE"],
		"GOROOT=" + vars["GOROOT"],
		"GOPATH=" + filepath.Join(work, "gopath"),
		"GOMODCACHE=" + filepath.Join(work, "modcache"),
		// The module cache is made writable so that the test can remove
		// it. Without -trimpath a package's build hashes its directory, so
		// every new module cache would build modkit's dependencies anew.
		// -ldflags=-w: no test reads a mod's DWARF debug information,
		// about a third of its link (testenv.LeanLinks).
		"GOFLAGS=-mod=readonly -modcacherw -trimpath -ldflags=-w",
		"GOTOOLCHAIN=local",
		"GOWORK=off",
		"GOENV=off",
	}
}

// goEnv returns the go command's setting key.
func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func fileURL(dir string) string { return "file://" + filepath.ToSlash(dir) }

// Add zips the directory dir as the module path@version into the proxy
// and records its hashes in the checksum database. edits replace the
// content of files, by slash-separated path in dir.
func (p *Proxy) Add(t T, path, version, dir string, edits map[string][]byte) {
	t.Helper()
	z, err := zipModule(module.Version{Path: path, Version: version}, dir, edits)
	if err != nil {
		t.Fatal(err)
	}
	p.publish(t, z)
}

// zipped is a module version as a proxy serves it, with its hashes.
type zipped struct {
	mv             module.Version
	zip, goMod     []byte
	zipSum, modSum string
}

// zipModule zips the directory dir, with edits, as the module version mv.
func zipModule(mv module.Version, dir string, edits map[string][]byte) (*zipped, error) {
	files, err := dirFiles(dir, edits)
	if err != nil {
		return nil, err
	}
	var zipBuf bytes.Buffer
	if err := modzip.Create(&zipBuf, mv, files); err != nil {
		return nil, fmt.Errorf("zip %s: %v", mv, err)
	}
	goMod, err := readEdited(dir, "go.mod", edits)
	if err != nil {
		return nil, err
	}
	zipSum, modSum, err := sums(zipBuf.Bytes(), goMod)
	if err != nil {
		return nil, err
	}
	return &zipped{mv: mv, zip: zipBuf.Bytes(), goMod: goMod, zipSum: zipSum, modSum: modSum}, nil
}

// publish puts z into the proxy and its hashes into the checksum database.
func (p *Proxy) publish(t T, z *zipped) {
	t.Helper()
	if err := p.write(z.mv, z.zip, z.goMod); err != nil {
		t.Fatal(err)
	}
	if err := p.db.add(z.mv.Path, z.mv.Version, z.zipSum, z.modSum); err != nil {
		t.Fatal(err)
	}
}

// Sums returns the h1: hashes of path@version's zip and go.mod as the
// proxy serves them.
func (p *Proxy) Sums(t T, path, version string) (zipSum, modSum string) {
	t.Helper()
	base := p.base(path, version)
	zipData, err := os.ReadFile(base + ".zip")
	if err != nil {
		t.Fatal(err)
	}
	goMod, err := os.ReadFile(base + ".mod")
	if err != nil {
		t.Fatal(err)
	}
	zipSum, modSum, err = sums(zipData, goMod)
	if err != nil {
		t.Fatal(err)
	}
	return zipSum, modSum
}

// TamperZip makes the proxy serve other bytes for path@version's zip: the
// files of dir with edits. The database keeps the first hash.
func (p *Proxy) TamperZip(t T, path, version, dir string, edits map[string][]byte) {
	t.Helper()
	files, err := dirFiles(dir, edits)
	if err != nil {
		t.Fatal(err)
	}
	var zipBuf bytes.Buffer
	if err := modzip.Create(&zipBuf, module.Version{Path: path, Version: version}, files); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.base(path, version)+".zip", zipBuf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TamperGoMod makes the proxy serve goMod as path@version's go.mod.
func (p *Proxy) TamperGoMod(t T, path, version string, goMod []byte) {
	t.Helper()
	if err := os.WriteFile(p.base(path, version)+".mod", goMod, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ForkTree makes the checksum database vouch for the hashes of what the
// proxy serves now for path@version, by rewriting its record: a tree of
// the same size with another root, which a go command that saw the first
// tree must refuse.
func (p *Proxy) ForkTree(t T, path, version string) {
	t.Helper()
	zipSum, modSum := p.Sums(t, path, version)
	if err := p.db.fork(path, version, zipSum, modSum); err != nil {
		t.Fatal(err)
	}
}

func (p *Proxy) base(path, version string) string {
	escPath, _ := module.EscapePath(path)
	escVersion, _ := module.EscapeVersion(version)
	return filepath.Join(p.Dir, filepath.FromSlash(escPath), "@v", escVersion)
}

// write lays out the module version's files in the proxy and adds it to
// the list of versions.
func (p *Proxy) write(mv module.Version, zipData, goMod []byte) error {
	base := p.base(mv.Path, mv.Version)
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	info := fmt.Sprintf(`{"Version":%q,"Time":"2026-01-01T00:00:00Z"}`, mv.Version)
	for _, f := range []struct {
		ext  string
		data []byte
	}{{".info", []byte(info)}, {".mod", goMod}, {".zip", zipData}} {
		if err := os.WriteFile(base+f.ext, f.data, 0o644); err != nil {
			return err
		}
	}
	list := filepath.Join(filepath.Dir(base), "list")
	old, _ := os.ReadFile(list)
	versions := append(strings.Fields(string(old)), mv.Version)
	sort.Strings(versions)
	return os.WriteFile(list, []byte(strings.Join(versions, "\n")+"\n"), 0o644)
}

// sums returns the h1: hashes of a zip and a go.mod.
func sums(zipData, goMod []byte) (zipSum, modSum string, err error) {
	tmp, err := os.CreateTemp("", "modproxytest-*.zip")
	if err != nil {
		return "", "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(zipData); err != nil {
		tmp.Close()
		return "", "", err
	}
	tmp.Close()
	if zipSum, err = dirhash.HashZip(tmp.Name(), dirhash.Hash1); err != nil {
		return "", "", err
	}
	modSum, err = dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(goMod)), nil
	})
	return zipSum, modSum, err
}

// dirFiles lists the regular files below dir for a module zip, skipping
// directories whose names start with a dot; edits replace contents.
func dirFiles(dir string, edits map[string][]byte) ([]modzip.File, error) {
	var files []modzip.File
	seen := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		files = append(files, file{rel: rel, path: path, data: edits[rel]})
		return nil
	})
	for rel, data := range edits {
		if !seen[rel] {
			files = append(files, file{rel: rel, data: data})
		}
	}
	return files, err
}

func readEdited(dir, rel string, edits map[string][]byte) ([]byte, error) {
	if data, ok := edits[rel]; ok {
		return data, nil
	}
	return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
}

// file is a file of a module zip: on disk, or given.
type file struct {
	rel, path string
	data      []byte // when not nil, the content
}

func (f file) Path() string { return f.rel }

func (f file) Lstat() (os.FileInfo, error) {
	if f.data != nil {
		return sizeInfo{name: filepath.Base(f.rel), size: int64(len(f.data))}, nil
	}
	return os.Lstat(f.path)
}

func (f file) Open() (io.ReadCloser, error) {
	if f.data != nil {
		return io.NopCloser(bytes.NewReader(f.data)), nil
	}
	return os.Open(f.path)
}

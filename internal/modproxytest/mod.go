package modproxytest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/modkit/modkit/internal/testenv"
)

// AddModkit adds this checkout as the module github.com/modkit/modkit at
// version, with edits (contents by slash-separated path) applied.
// A version without edits is zipped once per test process, however many
// proxies serve it.
func (p *Proxy) AddModkit(t T, version string, edits map[string][]byte) {
	t.Helper()
	if edits != nil {
		p.Add(t, ModkitPath, version, p.Root, edits)
		return
	}
	z, err := modkitZips.get(p.Root, version)
	if err != nil {
		t.Fatal(err)
	}
	p.publish(t, z)
}

// modkitZips holds the checkout's zip at each version added without edits,
// by root and version.
var modkitZips = &zipCache{m: map[[2]string]*zipEntry{}}

type zipCache struct {
	mu sync.Mutex
	m  map[[2]string]*zipEntry
}

type zipEntry struct {
	once sync.Once
	z    *zipped
	err  error
}

func (c *zipCache) get(root, version string) (*zipped, error) {
	c.mu.Lock()
	e, ok := c.m[[2]string{root, version}]
	if !ok {
		e = &zipEntry{}
		c.m[[2]string{root, version}] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		e.z, e.err = zipModule(module.Version{Path: ModkitPath, Version: version}, root, nil)
	})
	return e.z, e.err
}

// WriteMod writes into dir the module path holding one mod at its root,
// whose Go source is goFile: a go.mod requiring modkit at modkitVersion
// (which must be in the proxy) and everything modkit requires, a go.sum
// with their hashes, and the files modgen generates, by the modgen of this
// checkout.
func (p *Proxy) WriteMod(t T, dir, path, modkitVersion, goFile string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := path[strings.LastIndex(path, "/")+1:]
	if err := os.WriteFile(filepath.Join(dir, name+".go"), []byte(goFile), 0o644); err != nil {
		t.Fatal(err)
	}
	sumData, err := os.ReadFile(filepath.Join(p.Root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	// Generate with modkit replaced by this checkout, then require the
	// version in the proxy instead.
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sumData, 0o644); err != nil {
		t.Fatal(err)
	}
	p.writeGoMod(t, dir, path, "v0.0.0", "replace "+ModkitPath+" => "+p.Root+"\n")
	p.generate(t, dir)
	p.writeGoMod(t, dir, path, modkitVersion, "")
	zipSum, modSum := p.Sums(t, ModkitPath, modkitVersion)
	sumData = fmt.Appendf(sumData, "%s %s %s\n%s %s/go.mod %s\n", ModkitPath, modkitVersion, zipSum, ModkitPath, modkitVersion, modSum)
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sumData, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeGoMod writes the mod's go.mod: modkit at modkitVersion and, as
// indirect requirements, everything this checkout's go.mod requires.
func (p *Proxy) writeGoMod(t T, dir, path, modkitVersion, extra string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(p.Root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "module %s\n\ngo %s\n\nrequire %s %s\n\nrequire (\n", path, f.Go.Version, ModkitPath, modkitVersion)
	for _, r := range f.Require {
		fmt.Fprintf(&b, "\t%s %s // indirect\n", r.Mod.Path, r.Mod.Version)
	}
	b.WriteString(")\n")
	if extra != "" {
		b.WriteString("\n" + extra)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// modgen returns this checkout's modgen, built once per change of the
// sources for every package's tests.
func (p *Proxy) modgen(t T) string {
	t.Helper()
	path, err := testenv.ProgramPath("github.com/modkit/modkit/cmd/modgen")
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// generated holds what modgen wrote for the sources of each mod a test
// process generated, by a hash of the sources: a process that writes the
// same mod again (each script of a suite, say) copies the files and spends
// no second modgen run, which loads packages with the go command.
var generated struct {
	mu    sync.Mutex
	files map[[sha256.Size]byte]map[string][]byte
}

// generate runs this checkout's modgen in dir, or writes what it wrote for
// the same sources before.
func (p *Proxy) generate(t T, dir string) {
	t.Helper()
	before := readFiles(t, dir)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", p.Root)
	for _, name := range slices.Sorted(maps.Keys(before)) {
		fmt.Fprintf(h, "%s\x00%d\x00%s", name, len(before[name]), before[name])
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	generated.mu.Lock()
	defer generated.mu.Unlock()
	if files, ok := generated.files[key]; ok {
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	cmd := exec.Command(p.modgen(t), ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("modgen in %s: %v\n%s", dir, err, out)
	}
	// What modgen wrote; the go.mod and go.sum are written again anyway.
	files := map[string][]byte{}
	for name, data := range readFiles(t, dir) {
		if old, ok := before[name]; (!ok || !bytes.Equal(old, data)) && name != "go.mod" && name != "go.sum" {
			files[name] = data
		}
	}
	if generated.files == nil {
		generated.files = map[[sha256.Size]byte]map[string][]byte{}
	}
	generated.files[key] = files
}

// readFiles returns the regular files directly in dir by name.
func readFiles(t T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

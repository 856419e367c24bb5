package modproxytest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
)

// AddModkit adds this checkout as the module github.com/modkit/modkit at
// version, with edits (contents by slash-separated path) applied.
func (p *Proxy) AddModkit(t T, version string, edits map[string][]byte) {
	t.Helper()
	p.Add(t, ModkitPath, version, p.Root, edits)
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
	modgen := p.modgen(t)
	cmd := exec.Command(modgen, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("modgen in %s: %v\n%s", dir, err, out)
	}
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

var modgenBuild struct {
	once sync.Once
	path string
	err  error
}

// modgen builds this checkout's modgen once per test process.
func (p *Proxy) modgen(t T) string {
	t.Helper()
	modgenBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "modproxytest-modgen-")
		if err != nil {
			modgenBuild.err = err
			return
		}
		modgenBuild.path = filepath.Join(dir, "modgen")
		cmd := exec.Command("go", "build", "-o", modgenBuild.path, "./cmd/modgen")
		cmd.Dir = p.Root
		if out, err := cmd.CombinedOutput(); err != nil {
			modgenBuild.err = fmt.Errorf("go build ./cmd/modgen: %v\n%s", err, out)
		}
	})
	if modgenBuild.err != nil {
		t.Fatal(modgenBuild.err)
	}
	return modgenBuild.path
}

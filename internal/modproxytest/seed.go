package modproxytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// SeedDeps puts modkit's dependencies into the new module cache modCache
// as the module cache the tests run with holds them, so that it starts as
// a developer's does: everything a mod's build needs but modkit and the
// test's own modules, which the go command still fetches from the proxy.
// Files are hard-linked (copied where linking fails), so seeding costs
// no extraction of zips.
func (p *Proxy) SeedDeps(t T, modCache string) {
	t.Helper()
	deps, err := depsOnce(p.Root)
	if err != nil {
		t.Fatal(err)
	}
	made := map[string]bool{}
	for _, rel := range deps.files {
		to := filepath.Join(modCache, rel)
		if dir := filepath.Dir(to); !made[dir] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			made[dir] = true
		}
		if err := linkFile(filepath.Join(deps.from, rel), to); err != nil {
			t.Fatalf("seed the module cache: %v", err)
		}
	}
}

// seed is what SeedDeps links: the paths of files relative to the module
// cache from.
type seed struct {
	from  string
	files []string
}

var seeds sync.Map // root → func() (seed, error)

// depsOnce lists the files of root's dependencies once per process.
func depsOnce(root string) (seed, error) {
	f, _ := seeds.LoadOrStore(root, sync.OnceValues(func() (seed, error) { return listDeps(root) }))
	return f.(func() (seed, error))()
}

// listDeps asks go mod download which modules root's packages need and
// where the module cache holds them: the extracted tree and, in the
// download cache, the version's .info, .mod, .zip and .ziphash.
func listDeps(root string) (seed, error) {
	cmd := exec.Command("go", "mod", "download", "-json")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return seed{}, fmt.Errorf("go mod download -json in %s: %v\n%s", root, err, stderr.Bytes())
	}
	from, err := goEnv("GOMODCACHE")
	if err != nil {
		return seed{}, err
	}
	s := seed{from: from}
	add := func(path string) error {
		rel, err := filepath.Rel(s.from, path)
		if err != nil || !filepath.IsLocal(rel) {
			return fmt.Errorf("%s is not in the module cache %s", path, s.from)
		}
		s.files = append(s.files, rel)
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m struct{ Path, Info, GoMod, Zip, Dir, Error string }
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return seed{}, fmt.Errorf("go mod download -json: %v", err)
		}
		if m.Error != "" {
			return seed{}, fmt.Errorf("go mod download %s: %s", m.Path, m.Error)
		}
		// A module needed only for its go.mod has no zip or tree.
		files := []string{m.Info, m.GoMod}
		if m.Zip != "" {
			files = append(files, m.Zip, strings.TrimSuffix(m.Zip, ".zip")+".ziphash")
		}
		for _, path := range files {
			if path == "" {
				continue
			}
			if err := add(path); err != nil {
				return seed{}, err
			}
		}
		if m.Dir == "" {
			continue
		}
		err := filepath.WalkDir(m.Dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			return add(path)
		})
		if err != nil {
			return seed{}, err
		}
	}
	return s, nil
}

// linkFile hard-links from to to, or copies it where the file system
// refuses the link.
func linkFile(from, to string) error {
	err := os.Link(from, to)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return nil
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o444)
}

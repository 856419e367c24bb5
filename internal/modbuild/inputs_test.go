package modbuild

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// writeKeymod writes host/testdata/keymod.txtar, a mod reading every kind
// of build input, into a new directory with the checkout's go.sum, and
// returns the directory of the workspace.
func writeKeymod(t *testing.T) string {
	t.Helper()
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(filepath.Join(checkout, "host", "testdata", "keymod.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range ar.Files {
		path := filepath.Join(root, f.Name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, bytes.ReplaceAll(f.Data, []byte("MODKIT"), []byte(checkout)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := os.ReadFile(filepath.Join(checkout, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "main", "go.sum"), sum, 0o644)
	return root
}

// Every input of a mod's build changes its cache key or its record's
// digest, without building: go list finds the package directories (a
// sibling package, a replace target, a workspace module, embedded files,
// files behind a build tag or cgo), Digest hashes them, Key hashes the
// configuration. host's TestChangedInputsRebuild checks end to end, for
// one source edit and one configuration change, that the host then builds
// again and runs the new code.
func TestEveryInputIsCovered(t *testing.T) {
	root := writeKeymod(t)
	dir := filepath.Join(root, "main", "keymod")
	const pkg = "example.com/keymod/keymod"
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// state returns the configuration's key and the inputs' digest now.
	state := func(t *testing.T) (key, digest string) {
		t.Helper()
		cfg, err := Configure(dir, pkg)
		if err != nil {
			t.Fatal(err)
		}
		overlay, err := cache.Overlay("keymod", cfg.Key, dir, MainFile(pkg))
		if err != nil {
			t.Fatal(err)
		}
		inputs, err := ListInputs(context.Background(), dir, overlay, cfg.Flags, cfg.ModCache, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Key, Digest(inputs)
	}
	edit := func(name, data string) func(t *testing.T) {
		return func(t *testing.T) {
			path := filepath.Join(root, filepath.FromSlash(name))
			old, _ := os.ReadFile(path)
			if err := os.WriteFile(path, append(old, data...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	key, digest := state(t)
	for _, tt := range []struct {
		name   string
		change func(t *testing.T)
		// key says the key changes; else the digest does.
		key bool
	}{
		{"sibling package", edit("main/sib/sib.go", "\n// edited\n"), false},
		{"replace target", edit("dep/dep.go", "\n// edited\n"), false},
		{"workspace module", edit("wdep/wdep.go", "\n// edited\n"), false},
		{"embedded file", edit("main/sib/msg.txt", "more"), false},
		{"file behind a build tag", edit("main/sib/tag.go", "\n// edited\n"), false},
		{"file behind cgo", edit("main/sib/cgo.go", "\n// edited\n"), false},
		{"new file in a package", func(t *testing.T) { edit("main/sib/more.go", "package sib\n")(t) }, false},
		{"GOFLAGS build tags", func(t *testing.T) { t.Setenv("GOFLAGS", os.Getenv("GOFLAGS")+" -tags=keymodtag") }, true},
		{"CGO_ENABLED", func(t *testing.T) { t.Setenv("CGO_ENABLED", "0") }, true},
		{"go.mod", edit("main/go.mod", "\ngodebug asynctimerchan=1\n"), true},
		{"go.work", edit("go.work", "\ngodebug asynctimerchan=1\n"), true},
		{"workspace module's go.mod", edit("wdep/go.mod", "\ngodebug asynctimerchan=0\n"), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.change(t)
			k, d := state(t)
			if tt.key && k == key {
				t.Errorf("key unchanged: %s", k)
			}
			if !tt.key && (d == digest || k != key) {
				t.Errorf("got key %s and digest %s, want key %s and a digest other than %s", k, d, key, digest)
			}
			key, digest = k, d
		})
	}
}

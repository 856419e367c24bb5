package schematest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/internal/modgen/schema"
	"github.com/modkit/modkit/internal/modgen/schematest/schemagen"
)

var update = flag.Bool("update", false, "rewrite golden files (go generate works too, even when the generated file no longer compiles)")

var roots = schemagen.Roots

// generate derives the schemas of roots and the validator file from this
// package's source.
func generate(t testing.TB) (map[string]*schema.Schema, []byte) {
	t.Helper()
	schemas, src, err := schemagen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	return schemas, src
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go generate to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: got a different result than the golden file; run go generate and review the diff\ngot:\n%s", path, got)
	}
}

// TestGolden pins the schemas and the generated validators. Regenerate
// them with go generate (go run ./gen) in this directory.
func TestGolden(t *testing.T) {
	schemas, src := generate(t)
	for _, name := range roots {
		t.Run(name, func(t *testing.T) {
			golden(t, filepath.Join("testdata", name+".schema.json"), schemas[name].Indent())
		})
	}
	golden(t, load.GeneratedFile, src)
}

func TestDeterministic(t *testing.T) {
	a, srcA := generate(t)
	b, srcB := generate(t)
	if !bytes.Equal(srcA, srcB) {
		t.Errorf("generated Go differs between two runs")
	}
	for _, name := range roots {
		if !bytes.Equal(a[name].Indent(), b[name].Indent()) {
			t.Errorf("schema of %s differs between two runs", name)
		}
	}
}

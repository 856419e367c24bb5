package schematest

import (
	"bytes"
	"flag"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	"github.com/modkit/modkit/internal/modgen/codegen"
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/internal/modgen/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

// roots are the types whose schemas and validators are pinned.
var roots = []string{"Everything", "Constraints", "Node", "ItemPage", "Search", "Sizes", "Color", "Level"}

// generate derives the schemas of roots and the validator file from this
// package's source.
func generate(t testing.TB) (map[string]*schema.Schema, []byte) {
	t.Helper()
	pkgs, diags, err := load.Packages("", ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Fatal(d.Format(""))
	}
	pkg := pkgs[0]
	g := &schema.Generator{Fset: pkg.Fset, Docs: schema.NewDocs(pkg.Fset, pkg.Syntax), Mode: schema.Input}
	out := map[string]*schema.Schema{}
	gen := map[string]codegen.Root{}
	for _, name := range roots {
		tn := pkg.Types.Scope().Lookup(name).(*types.TypeName)
		out[name] = g.Root(tn.Type(), tn.Pos())
		gen[name] = codegen.Root{Type: tn.Type(), Schema: out[name]}
	}
	for _, e := range g.Errors() {
		t.Errorf("%v", e)
	}
	src, err := codegen.Checkers(pkg.PkgPath, pkg.Name, gen)
	if err != nil {
		t.Fatal(err)
	}
	return out, src
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
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: got a different result than the golden file; run with -update and review the diff\ngot:\n%s", path, got)
	}
}

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

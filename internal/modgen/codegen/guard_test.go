package codegen

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/modgen/schema"
	"github.com/modkit/modkit/sdk/jsoncheck"
)

// TestVersionGuard: a generated file compiles against the jsoncheck it
// was generated for, and one generated for another version fails with a
// message that says to regenerate.
func TestVersionGuard(t *testing.T) {
	t.Parallel()
	src, err := Checkers("example.com/m", "m", map[string]Root{
		"Flag": {Type: types.Typ[types.Bool], Schema: &schema.Schema{Type: "boolean", Root: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	check := func(src string) error {
		f, err := parser.ParseFile(fset, "zz_generated.modgen.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		conf := types.Config{Importer: imp}
		_, err = conf.Check("example.com/m", fset, []*ast.File{f}, nil)
		return err
	}
	if err := check(string(src)); err != nil {
		t.Fatalf("the generated file does not compile: %v\n%s", err, src)
	}
	guard := "RegenerateWithGoGenerate(" + strconv.Itoa(jsoncheck.Version) + " - jsoncheck.MinVersion)"
	if !strings.Contains(string(src), guard) {
		t.Fatalf("the generated file has no guard %q:\n%s", guard, src)
	}
	for _, v := range []int{jsoncheck.MinVersion - 1, jsoncheck.Version + 1} {
		other := strings.ReplaceAll(string(src), strconv.Itoa(jsoncheck.Version)+" - jsoncheck.MinVersion", strconv.Itoa(v)+" - jsoncheck.MinVersion")
		other = strings.ReplaceAll(other, "jsoncheck.Version - "+strconv.Itoa(jsoncheck.Version), "jsoncheck.Version - "+strconv.Itoa(v))
		err := check(other)
		if err == nil || !strings.Contains(err.Error(), "RegenerateWithGoGenerate") {
			t.Errorf("a file generated for version %d: got error %v, want one naming RegenerateWithGoGenerate", v, err)
		}
	}
}

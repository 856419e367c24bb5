package schema

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// rootOf converts type T of the Go source src and returns its schema as
// JSON and the problems found.
func rootOf(t *testing.T, src string) (string, []string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "t.go", "package p\n"+src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &Generator{Fset: fset, Mode: Input, Module: "p"}
	tn := pkg.Scope().Lookup("T")
	raw, _ := g.Root(tn.Type(), tn.Pos()).MarshalJSON()
	var errs []string
	for _, e := range g.Errors() {
		errs = append(errs, e.Msg)
	}
	return string(raw), errs
}

func TestStructTag(t *testing.T) {
	const fields = "A string `json:\"a,omitempty\"`; B *int `json:\"b,omitempty\"`; M string `json:\"m,omitempty\"`; R string `json:\"r\"`"
	tests := []struct {
		tag      string
		wantJSON string // a part of the schema
		wantErr  string
	}{
		{tag: "anyRequired=a|b", wantJSON: `"allOf":[{"anyOf":[{"required":["a"]},{"required":["b"]}]}]`},
		{tag: "if=m=x,then=a b,else=b", wantJSON: `"if":{"properties":{"m":{"const":"x"}},"required":["m"]},"then":{"required":["a","b"]},"else":{"required":["b"]}`},
		{tag: "if=b=2,else=a", wantJSON: `"if":{"properties":{"b":{"const":2}},"required":["b"]},"else":{"required":["a"]}`},
		{tag: "anchor=self", wantJSON: `"$anchor":"self"`},
		{tag: "anyRequired=a|zz", wantErr: `anyRequired: no property "zz": want one of a, b, m, r`},
		{tag: "anyRequired=a|r", wantErr: `anyRequired: property "r" is always required: make it optional (omitempty, a pointer or the bare keyword optional)`},
		{tag: "anyRequired=a", wantErr: "anyRequired=a: want two or more properties separated by |"},
		{tag: "anyRequired=a|a", wantErr: `anyRequired: property "a" is given twice`},
		{tag: "if=b=x,then=a", wantErr: "if=b=x: want a number"},
		{tag: "if=m,then=a", wantErr: "if=m: want if=property=value"},
		{tag: "if=m=x", wantErr: "if=m wants then, else or both"},
		{tag: "then=a", wantErr: "then and else want an if=property=value"},
		{tag: "if=m=x,if=m=y,then=a", wantErr: "if is given twice: a struct has one if/then/else"},
		{tag: "anchor=1x", wantErr: "anchor=1x: want a letter or _ then letters, digits, '-', '_' or '.'"},
		{tag: "minimum=1", wantErr: "jsonschema tag key minimum constrains a field, not a struct's blank field: want one of anchor, anyRequired, else, if, then"},
		{tag: "required", wantErr: `the tag of a blank field takes anchor, anyRequired, else, if, then items only, not "required"`},
	}
	for _, tt := range tests {
		got, errs := rootOf(t, "type T struct { _ struct{} `jsonschema:\""+tt.tag+"\"`; "+fields+" }")
		if tt.wantErr != "" {
			if len(errs) != 1 || errs[0] != tt.wantErr {
				t.Errorf("%s: got errors %q, want %q", tt.tag, errs, tt.wantErr)
			}
			continue
		}
		if len(errs) > 0 || !strings.Contains(got, tt.wantJSON) {
			t.Errorf("%s: got %s (errors %q), want it to hold %s", tt.tag, got, errs, tt.wantJSON)
		}
	}
}

func TestStructTagOnField(t *testing.T) {
	_, errs := rootOf(t, "type T struct { A string `jsonschema:\"anyRequired=a|b\"` }")
	want := "field A: jsonschema tag key anyRequired constrains a struct: put it in the tag of the struct's blank field, _ struct{}"
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("got errors %q, want %q", errs, want)
	}
}

func TestAnchorTwice(t *testing.T) {
	_, errs := rootOf(t, "type T struct { X U `json:\"x\"`; Y V `json:\"y\"` }; type U struct { _ struct{} `jsonschema:\"anchor=a\"` }; type V struct { _ struct{} `jsonschema:\"anchor=a\"` }")
	want := "anchor=a: p.U has it already"
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("got errors %q, want %q", errs, want)
	}
}

package schemagen

import (
	"fmt"
	"go/types"

	"github.com/modkit/modkit/internal/modgen/codegen"
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/internal/modgen/schema"
)

// Roots are the types whose schemas and validators are pinned.
var Roots = []string{"Everything", "Constraints", "Node", "ItemPage", "Search", "Sizes", "Color", "Level", "Wire", "Owned", "Contact"}

// Generate loads the schematest package in dir and returns the schema of
// each root and the generated validator file.
func Generate(dir string) (map[string]*schema.Schema, []byte, error) {
	pkgs, diags, err := load.Packages(dir, ".")
	if err != nil {
		return nil, nil, err
	}
	if len(diags) > 0 {
		return nil, nil, fmt.Errorf("%s", diags[0].Format(""))
	}
	pkg := pkgs[0]
	g := &schema.Generator{Fset: pkg.Fset, Docs: schema.NewDocs(pkg.Fset, pkg.Syntax), Mode: schema.Input, Module: load.ModulePath(pkg)}
	out := map[string]*schema.Schema{}
	roots := map[string]codegen.Root{}
	for _, name := range Roots {
		tn, ok := pkg.Types.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			return nil, nil, fmt.Errorf("no type %s", name)
		}
		out[name] = g.Root(tn.Type(), tn.Pos())
		roots[name] = codegen.Root{Type: tn.Type(), Schema: out[name]}
	}
	if errs := g.Errors(); len(errs) > 0 {
		return nil, nil, errs[0]
	}
	src, err := codegen.Checkers(pkg.PkgPath, pkg.Name, roots)
	if err != nil {
		return nil, nil, err
	}
	return out, src, nil
}

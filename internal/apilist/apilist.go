package apilist

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Public are the import paths of the packages mod authors and hosts build
// on, whose API modkit keeps.
var Public = []string{
	"github.com/modkit/modkit/sdk",
	"github.com/modkit/modkit/sdk/modtest",
	"github.com/modkit/modkit/sdk/serve",
	"github.com/modkit/modkit/manifest",
	"github.com/modkit/modkit/host",
}

// List loads the packages matching patterns in dir and returns the lines
// of their exported API, sorted by text. A package that does not load or
// type-check is an error naming its problems.
func List(dir string, patterns ...string) ([]string, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:  dir,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %v", strings.Join(patterns, " "), err)
	}
	var problems []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			problems = append(problems, e.Error())
		}
	})
	if len(problems) > 0 {
		return nil, fmt.Errorf("loading %s:\n\t%s", strings.Join(patterns, " "), strings.Join(problems, "\n\t"))
	}
	var lines []string
	for _, p := range pkgs {
		l := lister{pkg: p.Types, deprecated: deprecatedObjects(p)}
		l.list()
		lines = append(lines, l.lines...)
	}
	sort.Strings(lines)
	return lines, nil
}

// lister lists one package.
type lister struct {
	pkg        *types.Package
	deprecated map[types.Object]bool
	lines      []string
}

func (l *lister) add(format string, args ...any) {
	l.lines = append(l.lines, fmt.Sprintf("pkg %s, ", l.pkg.Path())+fmt.Sprintf(format, args...))
}

// addDeprecated adds the //deprecated line of obj, listed by head
// ("const Completed"), when its doc says so.
func (l *lister) addDeprecated(obj types.Object, head string) {
	if l.deprecated[obj] {
		l.add("%s //deprecated", head)
	}
}

func (l *lister) list() {
	scope := l.pkg.Scope()
	for _, n := range scope.Names() {
		obj := scope.Lookup(n)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			l.add("const %s %s = %s", n, l.typ(obj.Type()), obj.Val().ExactString())
			l.addDeprecated(obj, "const "+n)
		case *types.Var:
			l.add("var %s %s", n, l.typ(obj.Type()))
			l.addDeprecated(obj, "var "+n)
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			l.add("func %s%s%s", n, l.typeParams(sig.TypeParams()), l.signature(sig))
			l.addDeprecated(obj, "func "+n)
		case *types.TypeName:
			l.typeName(obj)
		}
	}
}

// typeName lists a type: its kind, its exported fields or interface
// methods, and its methods.
func (l *lister) typeName(obj *types.TypeName) {
	n := obj.Name()
	if obj.IsAlias() {
		rhs := types.Unalias(obj.Type())
		l.add("type %s = %s", n, l.typ(rhs))
		l.addDeprecated(obj, "type "+n)
		l.members(n, rhs)
		return
	}
	named := obj.Type().(*types.Named)
	head := "type " + n + l.typeParams(named.TypeParams())
	switch u := named.Underlying().(type) {
	case *types.Struct:
		l.add("%s struct", head)
	case *types.Interface:
		l.add("%s interface", head)
	default:
		l.add("%s %s", head, l.typ(u))
	}
	l.addDeprecated(obj, "type "+n)
	l.members(n, named)
}

// members lists the exported fields (of a struct), methods (of an
// interface) and method set of t under the type name n.
func (l *lister) members(n string, t types.Type) {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			f := u.Field(i)
			if !f.Exported() {
				continue
			}
			if f.Embedded() {
				l.add("type %s struct, embedded %s", n, l.typ(f.Type()))
			} else {
				l.add("type %s struct, %s %s", n, f.Name(), l.typ(f.Type()))
			}
			l.addDeprecated(f, fmt.Sprintf("type %s struct, %s", n, f.Name()))
		}
	case *types.Interface:
		sealed := false
		for i := range u.NumMethods() {
			m := u.Method(i)
			if !m.Exported() {
				sealed = true
				continue
			}
			l.add("type %s interface, %s%s", n, m.Name(), l.signature(m.Type().(*types.Signature)))
			l.addDeprecated(m, fmt.Sprintf("type %s interface, %s", n, m.Name()))
		}
		if sealed {
			l.add("type %s interface, unexported methods", n)
		}
		return
	}
	if _, ok := t.(*types.Named); !ok {
		return
	}
	ms := types.NewMethodSet(types.NewPointer(t))
	for i := range ms.Len() {
		m := ms.At(i).Obj().(*types.Func)
		if !m.Exported() {
			continue
		}
		sig := m.Type().(*types.Signature)
		recv := n
		if _, ok := sig.Recv().Type().(*types.Pointer); ok {
			recv = "*" + n
		}
		l.add("method (%s) %s%s", recv, m.Name(), l.signature(sig))
		l.addDeprecated(m, fmt.Sprintf("method (%s) %s", recv, m.Name()))
	}
}

// qualifier writes types of other packages by import path, the listed
// package's by name alone.
func (l *lister) qualifier(p *types.Package) string {
	if p == l.pkg {
		return ""
	}
	return p.Path()
}

func (l *lister) typ(t types.Type) string {
	return types.TypeString(t, l.qualifier)
}

func (l *lister) typeParams(tps *types.TypeParamList) string {
	if tps.Len() == 0 {
		return ""
	}
	var parts []string
	for i := range tps.Len() {
		tp := tps.At(i)
		parts = append(parts, tp.Obj().Name()+" "+l.typ(tp.Constraint()))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// signature writes sig's parameters and results without their names, which
// are not part of the API.
func (l *lister) signature(sig *types.Signature) string {
	tuple := func(t *types.Tuple, variadic bool) string {
		var parts []string
		for i := range t.Len() {
			s := l.typ(t.At(i).Type())
			if variadic && i == t.Len()-1 {
				s = "..." + l.typ(t.At(i).Type().(*types.Slice).Elem())
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ", ")
	}
	s := "(" + tuple(sig.Params(), sig.Variadic()) + ")"
	switch res := sig.Results(); res.Len() {
	case 0:
	case 1:
		s += " " + tuple(res, false)
	default:
		s += " (" + tuple(res, false) + ")"
	}
	return s
}

// deprecatedObjects returns the objects of p whose doc comment has a
// paragraph starting "Deprecated:".
func deprecatedObjects(p *packages.Package) map[types.Object]bool {
	dep := map[types.Object]bool{}
	mark := func(doc *ast.CommentGroup, idents ...*ast.Ident) {
		if !isDeprecated(doc) {
			return
		}
		for _, id := range idents {
			if obj := p.TypesInfo.Defs[id]; obj != nil {
				dep[obj] = true
			}
		}
	}
	for _, f := range p.Syntax {
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				mark(decl.Doc, decl.Name)
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						doc := spec.Doc
						if doc == nil && len(decl.Specs) == 1 {
							doc = decl.Doc
						}
						mark(doc, spec.Name)
						markFields(spec.Type, mark)
					case *ast.ValueSpec:
						doc := spec.Doc
						if doc == nil && decl.Lparen == token.NoPos {
							doc = decl.Doc
						}
						mark(doc, spec.Names...)
					}
				}
			}
		}
	}
	return dep
}

// markFields marks the deprecated fields of a struct type and methods of
// an interface type.
func markFields(t ast.Expr, mark func(*ast.CommentGroup, ...*ast.Ident)) {
	var fields *ast.FieldList
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return
	}
	for _, f := range fields.List {
		mark(f.Doc, f.Names...)
	}
}

// isDeprecated reports whether doc has a paragraph starting "Deprecated:",
// as go vet's and gopls's deprecation checks read it.
func isDeprecated(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, para := range strings.Split(doc.Text(), "\n\n") {
		if strings.HasPrefix(para, "Deprecated:") {
			return true
		}
	}
	return false
}

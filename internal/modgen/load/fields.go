package load

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// A field reads the value of one key of a declaration's literal; what
// names it in errors ("tool Name").
type field func(v ast.Expr, what string)

// fields is how one kind of declaration is read: each key it has, with
// the reader of its value. Keys not listed are left to the type checker.
type fields map[string]field

// read reads the keyed literal cl by fs. prefix starts each field's name
// in errors: "tool " gives "tool Name", "Metadata." gives "Metadata.ID".
func (r *reader) read(cl *ast.CompositeLit, prefix string, fs fields) {
	r.keyed(cl, func(key string, v ast.Expr) {
		if f := fs[key]; f != nil {
			f(v, prefix+key)
		}
	})
}

// text reads a constant string into dst.
func (r *reader) text(dst *Str) field {
	return func(v ast.Expr, what string) { *dst = r.str(v, what) }
}

// texts reads a slice of constant strings into dst; item names one in
// errors.
func (r *reader) texts(dst *[]Str, item string) field {
	return func(v ast.Expr, what string) {
		for _, el := range r.elems(v, what) {
			*dst = append(*dst, r.str(el, item))
		}
	}
}

// handler records in dst whether a function-valued field is set.
func (r *reader) handler(dst *bool) field {
	return func(v ast.Expr, _ string) { *dst = !isNil(r.pkg.TypesInfo, v) }
}

// flag reads a constant bool into dst.
func (r *reader) flag(dst *bool) field {
	return func(v ast.Expr, what string) {
		tv, ok := r.pkg.TypesInfo.Types[v]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
			r.errorf(v.Pos(), "%s must be a compile-time constant bool", what)
			return
		}
		*dst = constant.BoolVal(tv.Value)
	}
}

// each reads every element of the slice literal v with readOne, keeping
// those it could read.
func each[T any](r *reader, v ast.Expr, what string, readOne func(ast.Expr) (T, bool)) []T {
	var out []T
	for _, el := range r.elems(v, what) {
		if x, ok := readOne(el); ok {
			out = append(out, x)
		}
	}
	return out
}

// declaredAt gives each string the literal did not declare the literal's
// position, where an error about its absence points.
func declaredAt(pos token.Pos, ss ...*Str) {
	for _, s := range ss {
		if s.Pos == token.NoPos {
			s.Pos = pos
		}
	}
}

// readDecl reads the literal e of one kind of declaration into a new
// value: what names the kind when e is no literal ("a hook"), and into
// reads the literal's fields into the value.
func readDecl[T any](r *reader, e ast.Expr, what string, into func(x *T, cl *ast.CompositeLit)) (T, bool) {
	var x T
	cl, ok := r.lit(e, what)
	if ok {
		into(&x, cl)
	}
	return x, ok
}

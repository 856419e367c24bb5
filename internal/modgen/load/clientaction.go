package load

import (
	"go/ast"
	"go/token"
	"go/types"
)

// ClientActionKind is a kind of client action a tool lists: an
// sdk.ClientActionKind literal.
type ClientActionKind struct {
	// Pos is the literal's position; Ref is where the tool lists it.
	Pos, Ref    token.Pos
	Kind        Str
	Description Str
	// Params is the parameters' Go type.
	Params types.Type
}

// clientActionKind reads an sdk.ClientActionKind literal, or a
// package-level variable holding one.
func (r *reader) clientActionKind(e ast.Expr) (ClientActionKind, bool) {
	cl, ok := r.lit(e, "a client action kind")
	if !ok {
		return ClientActionKind{}, false
	}
	k := ClientActionKind{Pos: cl.Pos(), Ref: e.Pos()}
	named, _ := types.Unalias(r.pkg.TypesInfo.TypeOf(cl)).(*types.Named)
	if named == nil || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != SDKPath || named.Obj().Name() != "ClientActionKind" {
		r.errorf(cl.Pos(), "a client action kind must be an sdk.ClientActionKind literal")
		return k, false
	}
	k.Params = named.TypeArgs().At(0)
	r.read(cl, "client action ", fields{"Kind": r.text(&k.Kind), "Description": r.text(&k.Description)})
	declaredAt(cl.Pos(), &k.Kind, &k.Description)
	return k, true
}

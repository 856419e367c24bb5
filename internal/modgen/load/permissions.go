package load

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// Permissions are a mod's declared sdk.Permissions.
type Permissions struct {
	Pos            token.Pos // the literal
	WriteWorkspace bool
	Connect        []Str
	Run            []Str
	Read           []Str
	Env            []Str
}

// permissions reads an sdk.Permissions literal.
func (r *reader) permissions(e ast.Expr) *Permissions {
	cl, ok := r.lit(e, "Permissions")
	if !ok {
		return nil
	}
	p := &Permissions{Pos: cl.Pos()}
	strs := func(v ast.Expr, field string) []Str {
		var out []Str
		for _, el := range r.elems(v, "Permissions."+field) {
			out = append(out, r.str(el, "Permissions."+field+" entry"))
		}
		return out
	}
	r.keyed(cl, func(key string, v ast.Expr) {
		switch key {
		case "WriteWorkspace":
			tv, ok := r.pkg.TypesInfo.Types[v]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
				r.errorf(v.Pos(), "Permissions.WriteWorkspace must be a compile-time constant bool")
				return
			}
			p.WriteWorkspace = constant.BoolVal(tv.Value)
		case "Connect":
			p.Connect = strs(v, key)
		case "Run":
			p.Run = strs(v, key)
		case "Read":
			p.Read = strs(v, key)
		case "Env":
			p.Env = strs(v, key)
		}
	})
	return p
}

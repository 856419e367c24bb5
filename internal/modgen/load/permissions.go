package load

import (
	"go/ast"
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
	r.read(cl, "Permissions.", fields{
		"WriteWorkspace": r.flag(&p.WriteWorkspace),
		"Connect":        r.texts(&p.Connect, "Permissions.Connect entry"),
		"Run":            r.texts(&p.Run, "Permissions.Run entry"),
		"Read":           r.texts(&p.Read, "Permissions.Read entry"),
		"Env":            r.texts(&p.Env, "Permissions.Env entry"),
	})
	return p
}

package load

import (
	"go/ast"
	"go/token"
)

// Icon is one declared sdk.Icon, of a mod or a tool.
type Icon struct {
	Pos                        token.Pos // the literal
	File, URL, MIMEType, Theme Str
	Sizes                      []Str
}

// readIcon reads an sdk.Icon literal.
func (r *reader) readIcon(e ast.Expr) (Icon, bool) {
	return readDecl(r, e, "an icon", func(ic *Icon, cl *ast.CompositeLit) {
		ic.Pos = cl.Pos()
		r.read(cl, "icon ", fields{
			"File":     r.text(&ic.File),
			"URL":      r.text(&ic.URL),
			"MIMEType": r.text(&ic.MIMEType),
			"Sizes":    r.texts(&ic.Sizes, "icon size"),
			"Theme":    r.text(&ic.Theme),
		})
	})
}

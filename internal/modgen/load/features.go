package load

import (
	"go/ast"
	"go/token"
)

// Arg is one declared argument of a slash command.
type Arg struct {
	Pos         token.Pos
	Name        Str
	Description Str
	Required    bool
}

// Resource is one sdk.Resource of a mod.
type Resource struct {
	Pos                                     token.Pos
	URI, Name, Title, Description, MIMEType Str
	Icons                                   []Icon
	// HasRead reports whether the resource sets a Read handler.
	HasRead bool
	// Scopes are the OAuth scopes the resource declares a caller must hold.
	Scopes []Str
}

// ResourceTemplate is one sdk.ResourceTemplate of a mod.
type ResourceTemplate struct {
	Pos                                             token.Pos
	URITemplate, Name, Title, Description, MIMEType Str
	Icons                                           []Icon
	// HasRead and HasComplete report whether Read and Complete are set.
	HasRead, HasComplete bool
	// Scopes are the OAuth scopes the template declares a caller must hold.
	Scopes []Str
}

// readSlash reads an sdk.SlashCommand literal.
func (r *reader) readSlash(e ast.Expr) (Slash, bool) {
	return readDecl(r, e, "a slash command", func(s *Slash, cl *ast.CompositeLit) {
		s.Pos = cl.Pos()
		r.read(cl, "slash command ", fields{
			"ID":          r.text(&s.ID),
			"Title":       r.text(&s.Title),
			"Description": r.text(&s.Description),
			"Arguments":   func(v ast.Expr, what string) { s.Args = each(r, v, what, r.readArg) },
			"Run":         r.handler(&s.HasRun),
			"Prompt":      r.handler(&s.HasPrompt),
			"Complete":    r.handler(&s.HasComplete),
			"Scopes":      r.texts(&s.Scopes, "slash command scope"),
			"Icons":       func(v ast.Expr, what string) { s.Icons = each(r, v, what, r.readIcon) },
		})
		declaredAt(cl.Pos(), &s.Description)
	})
}

// readArg reads an sdk.PromptArgument literal.
func (r *reader) readArg(e ast.Expr) (Arg, bool) {
	return readDecl(r, e, "a slash command argument", func(a *Arg, cl *ast.CompositeLit) {
		a.Pos = cl.Pos()
		r.read(cl, "argument ", fields{
			"Name":        r.text(&a.Name),
			"Description": r.text(&a.Description),
			"Required":    r.flag(&a.Required),
		})
		declaredAt(cl.Pos(), &a.Name)
	})
}

// readResource reads an sdk.Resource literal.
func (r *reader) readResource(e ast.Expr) (Resource, bool) {
	return readDecl(r, e, "a resource", func(res *Resource, cl *ast.CompositeLit) {
		res.Pos = cl.Pos()
		r.read(cl, "resource ", fields{
			"URI":         r.text(&res.URI),
			"Name":        r.text(&res.Name),
			"Title":       r.text(&res.Title),
			"Description": r.text(&res.Description),
			"MIMEType":    r.text(&res.MIMEType),
			"Icons":       func(v ast.Expr, what string) { res.Icons = each(r, v, what, r.readIcon) },
			"Read":        r.handler(&res.HasRead),
			"Scopes":      r.texts(&res.Scopes, "resource scope"),
		})
		declaredAt(cl.Pos(), &res.URI, &res.Name, &res.Description, &res.MIMEType)
	})
}

// readTemplate reads an sdk.ResourceTemplate literal.
func (r *reader) readTemplate(e ast.Expr) (ResourceTemplate, bool) {
	return readDecl(r, e, "a resource template", func(t *ResourceTemplate, cl *ast.CompositeLit) {
		t.Pos = cl.Pos()
		r.read(cl, "resource template ", fields{
			"URITemplate": r.text(&t.URITemplate),
			"Name":        r.text(&t.Name),
			"Title":       r.text(&t.Title),
			"Description": r.text(&t.Description),
			"MIMEType":    r.text(&t.MIMEType),
			"Icons":       func(v ast.Expr, what string) { t.Icons = each(r, v, what, r.readIcon) },
			"Read":        r.handler(&t.HasRead),
			"Complete":    r.handler(&t.HasComplete),
			"Scopes":      r.texts(&t.Scopes, "resource template scope"),
		})
		declaredAt(cl.Pos(), &t.URITemplate, &t.Name, &t.Description, &t.MIMEType)
	})
}

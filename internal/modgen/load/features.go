package load

import (
	"go/ast"
	"go/constant"
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
	// HasRead reports whether the resource sets a Read handler.
	HasRead bool
	// Scopes are the OAuth scopes the resource declares a caller must hold.
	Scopes []Str
}

// ResourceTemplate is one sdk.ResourceTemplate of a mod.
type ResourceTemplate struct {
	Pos                                             token.Pos
	URITemplate, Name, Title, Description, MIMEType Str
	// HasRead and HasComplete report whether Read and Complete are set.
	HasRead, HasComplete bool
	// Scopes are the OAuth scopes the template declares a caller must hold.
	Scopes []Str
}

// readSlash reads an sdk.SlashCommand literal.
func (r *reader) readSlash(el ast.Expr) (Slash, bool) {
	c, ok := r.lit(el, "a slash command")
	if !ok {
		return Slash{}, false
	}
	s := Slash{Pos: c.Pos()}
	r.keyed(c, func(key string, v ast.Expr) {
		switch key {
		case "ID":
			s.ID = r.str(v, "slash command ID")
		case "Title":
			s.Title = r.str(v, "slash command Title")
		case "Description":
			s.Description = r.str(v, "slash command Description")
		case "Arguments":
			for _, a := range r.elems(v, "slash command Arguments") {
				if arg, ok := r.readArg(a); ok {
					s.Args = append(s.Args, arg)
				}
			}
		case "Run":
			s.HasRun = !isNil(r.pkg.TypesInfo, v)
		case "Prompt":
			s.HasPrompt = !isNil(r.pkg.TypesInfo, v)
		case "Complete":
			s.HasComplete = !isNil(r.pkg.TypesInfo, v)
		case "Scopes":
			s.Scopes = r.scopes(v, "slash command")
		}
	})
	if s.Description.Pos == token.NoPos {
		s.Description.Pos = c.Pos()
	}
	return s, true
}

// scopes reads the Scopes list of a declaration of noun.
func (r *reader) scopes(v ast.Expr, noun string) []Str {
	var scopes []Str
	for _, el := range r.elems(v, noun+" Scopes") {
		scopes = append(scopes, r.str(el, noun+" scope"))
	}
	return scopes
}

// readArg reads an sdk.PromptArgument literal.
func (r *reader) readArg(e ast.Expr) (Arg, bool) {
	cl, ok := r.lit(e, "a slash command argument")
	if !ok {
		return Arg{}, false
	}
	a := Arg{Pos: cl.Pos()}
	r.keyed(cl, func(key string, v ast.Expr) {
		switch key {
		case "Name":
			a.Name = r.str(v, "argument Name")
		case "Description":
			a.Description = r.str(v, "argument Description")
		case "Required":
			tv, ok := r.pkg.TypesInfo.Types[v]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
				r.errorf(v.Pos(), "argument Required must be a compile-time constant bool")
				return
			}
			a.Required = constant.BoolVal(tv.Value)
		}
	})
	if a.Name.Pos == token.NoPos {
		a.Name.Pos = cl.Pos()
	}
	return a, true
}

// readResource reads an sdk.Resource literal.
func (r *reader) readResource(e ast.Expr) (Resource, bool) {
	cl, ok := r.lit(e, "a resource")
	if !ok {
		return Resource{}, false
	}
	res := Resource{Pos: cl.Pos()}
	r.keyed(cl, func(key string, v ast.Expr) {
		switch key {
		case "URI":
			res.URI = r.str(v, "resource URI")
		case "Name":
			res.Name = r.str(v, "resource Name")
		case "Title":
			res.Title = r.str(v, "resource Title")
		case "Description":
			res.Description = r.str(v, "resource Description")
		case "MIMEType":
			res.MIMEType = r.str(v, "resource MIMEType")
		case "Read":
			res.HasRead = !isNil(r.pkg.TypesInfo, v)
		case "Scopes":
			res.Scopes = r.scopes(v, "resource")
		}
	})
	for _, s := range []*Str{&res.URI, &res.Name, &res.Description, &res.MIMEType} {
		if s.Pos == token.NoPos {
			s.Pos = cl.Pos()
		}
	}
	return res, true
}

// readTemplate reads an sdk.ResourceTemplate literal.
func (r *reader) readTemplate(e ast.Expr) (ResourceTemplate, bool) {
	cl, ok := r.lit(e, "a resource template")
	if !ok {
		return ResourceTemplate{}, false
	}
	t := ResourceTemplate{Pos: cl.Pos()}
	r.keyed(cl, func(key string, v ast.Expr) {
		switch key {
		case "URITemplate":
			t.URITemplate = r.str(v, "resource template URITemplate")
		case "Name":
			t.Name = r.str(v, "resource template Name")
		case "Title":
			t.Title = r.str(v, "resource template Title")
		case "Description":
			t.Description = r.str(v, "resource template Description")
		case "MIMEType":
			t.MIMEType = r.str(v, "resource template MIMEType")
		case "Read":
			t.HasRead = !isNil(r.pkg.TypesInfo, v)
		case "Complete":
			t.HasComplete = !isNil(r.pkg.TypesInfo, v)
		case "Scopes":
			t.Scopes = r.scopes(v, "resource template")
		}
	})
	for _, s := range []*Str{&t.URITemplate, &t.Name, &t.Description, &t.MIMEType} {
		if s.Pos == token.NoPos {
			s.Pos = cl.Pos()
		}
	}
	return t, true
}

package load

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/packages"
)

// SDKPath is the import path of the authoring SDK.
const SDKPath = "github.com/modkit/modkit/sdk"

// Mod is what modgen reads from a mod's DefineMod value.
type Mod struct {
	// Pkg is the mod's package.
	Pkg *packages.Package
	// Var is the package-level variable DefineMod initializes.
	Var *types.Var
	// Pos is the DefineMod call.
	Pos token.Pos
	ID  string
	// IDPos is where Metadata.ID is set; NoPos when the id defaults to the
	// package name.
	IDPos       token.Pos
	DisplayName string
	Description string
	// Icons are Metadata.Icons.
	Icons     []Icon
	Tools     []Tool
	Commands  []Command
	Slash     []Slash
	Resources []Resource
	Templates []ResourceTemplate
	Hooks     []Hook
	Agents    []Agent
	// Permissions are the declared ones; nil when the mod declares none.
	Permissions *Permissions
}

// Tool is one AI tool of a mod.
type Tool struct {
	Pos         token.Pos // the tool's literal
	Name        Str
	Title       Str
	Description Str
	Activity    Str
	Icons       []Icon
	// Annotations are the declared ones, nil when none are.
	Annotations *Annotations
	Rendered    bool
	HasView     bool
	In, Out     types.Type
	// Approval is the declared approval rule, nil when there is none.
	Approval *Approval
	// ClientActions are the kinds of client action the tool lists.
	ClientActions []ClientActionKind
	// Client is the tool's Client field: a client application may run it.
	Client bool
	// Task is the tool's declared task support, empty when none.
	Task Str
	// Scopes are the OAuth scopes the tool declares a caller must hold.
	Scopes []Str
	// HasRun reports whether the tool sets a Run handler.
	HasRun bool
	// HasText reports whether a rendered tool's View sets Text, or the
	// View could not be read (already reported).
	HasText bool
}

// Annotations are a tool's declared sdk.Annotations.
type Annotations struct {
	ReadOnly, Destructive, Idempotent, OpenWorld bool
}

// Str is a constant string read from the source, with its position.
type Str struct {
	Value string
	Pos   token.Pos
	// Bad is set when the expression was not a constant (already reported).
	Bad bool
}

// Command is one command of a mod.
type Command struct {
	Pos   token.Pos
	ID    Str
	Title Str
	// HasRun reports whether the command sets a Run function.
	HasRun bool
	// Scopes are the OAuth scopes the command declares a caller must hold.
	Scopes []Str
}

// Slash is one slash command of a mod.
type Slash struct {
	Pos         token.Pos
	ID          Str
	Title       Str
	Description Str
	Args        []Arg
	// HasRun, HasPrompt and HasComplete report whether the slash command
	// sets Run, Prompt and Complete.
	HasRun, HasPrompt, HasComplete bool
	// Scopes are the OAuth scopes the command declares a caller must hold.
	Scopes []Str
	Icons  []Icon
}

// Hook is one hook of a mod.
type Hook struct {
	Pos          token.Pos
	BeforeAction Str
	// HasRun reports whether the hook sets a Run function.
	HasRun bool
}

// Agent is one agent of a mod.
type Agent struct {
	Pos         token.Pos
	Name        Str
	Description Str
	Tools       []Str
}

// reader walks a DefineMod value.
type reader struct {
	pkg   *packages.Package
	vars  map[*types.Var]ast.Expr // package-level variable → initializer
	diags []Diag
	depth int
}

func (r *reader) errorf(pos token.Pos, format string, args ...any) {
	r.diags = append(r.diags, Diag{Pos: r.pkg.Fset.Position(pos), Msg: sprintf(format, args...)})
}

// FindMod finds the mod declared in pkg. It reports no DefineMod, two of
// them, a DefineMod call that is not a package-level variable's value, and
// non-constant names.
func FindMod(pkg *packages.Package) (*Mod, []Diag) {
	r := &reader{pkg: pkg, vars: map[*types.Var]ast.Expr{}}
	type found struct {
		v    *types.Var
		call *ast.CallExpr
	}
	var mods []found
	topLevel := map[*ast.CallExpr]bool{}
	for _, f := range pkg.Syntax {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					v, _ := pkg.TypesInfo.Defs[name].(*types.Var)
					if v == nil {
						continue
					}
					r.vars[v] = vs.Values[i]
					if call, ok := ast.Unparen(vs.Values[i]).(*ast.CallExpr); ok && r.isDefineMod(call) {
						topLevel[call] = true
						mods = append(mods, found{v, call})
					}
				}
			}
		}
	}
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && r.isDefineMod(call) && !topLevel[call] {
				r.errorf(call.Pos(), "sdk.DefineMod must be the value of a package-level variable")
			}
			return true
		})
	}
	switch len(mods) {
	case 0:
		pos := token.NoPos
		if len(pkg.Syntax) > 0 {
			pos = pkg.Syntax[0].Name.Pos()
		}
		r.errorf(pos, "package %s declares no sdk.DefineMod value", pkg.Name)
		return nil, r.diags
	case 1:
	default:
		for _, m := range mods[1:] {
			r.errorf(m.call.Pos(), "second sdk.DefineMod value %s: a mod package declares exactly one (the first is %s at %s)",
				m.v.Name(), mods[0].v.Name(), short(pkg.Fset.Position(mods[0].call.Pos())))
		}
		return nil, r.diags
	}
	m := &Mod{Pkg: pkg, Var: mods[0].v, Pos: mods[0].call.Pos()}
	call := mods[0].call
	if len(call.Args) != 1 {
		r.errorf(call.Pos(), "sdk.DefineMod takes one sdk.Mod")
		return nil, r.diags
	}
	r.readMod(m, call.Args[0])
	if m.ID == "" {
		m.ID = pkg.Name
	}
	return m, r.diags
}

// HasDefineMod reports whether pkg calls sdk.DefineMod anywhere: whether it
// means to be a mod.
func HasDefineMod(pkg *packages.Package) bool {
	r := &reader{pkg: pkg}
	found := false
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && r.isDefineMod(call) {
				found = true
			}
			return !found
		})
	}
	return found
}

func (r *reader) isDefineMod(call *ast.CallExpr) bool {
	var id *ast.Ident
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fn
	case *ast.SelectorExpr:
		id = fn.Sel
	default:
		return false
	}
	obj, ok := r.pkg.TypesInfo.Uses[id].(*types.Func)
	return ok && obj.Pkg() != nil && obj.Pkg().Path() == SDKPath && obj.Name() == "DefineMod"
}

// resolve follows identifiers naming package-level variables, and & and
// parentheses, to the expression that gives the value.
func (r *reader) resolve(e ast.Expr) ast.Expr {
	for range 32 {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return e
			}
			e = x.X
		case *ast.Ident:
			v, ok := r.pkg.TypesInfo.Uses[x].(*types.Var)
			if !ok {
				return e
			}
			init, ok := r.vars[v]
			if !ok {
				return e
			}
			e = init
		default:
			return e
		}
	}
	return e
}

// fields returns the keyed elements of a composite literal of the named
// SDK type, or reports what it got instead.
func (r *reader) lit(e ast.Expr, what string) (*ast.CompositeLit, bool) {
	e = r.resolve(e)
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		r.errorf(e.Pos(), "%s must be a composite literal (or a package-level variable holding one), so modgen can read it without running code", what)
		return nil, false
	}
	return cl, true
}

// keyed calls f for each key: value element of cl.
func (r *reader) keyed(cl *ast.CompositeLit, f func(key string, value ast.Expr)) {
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			r.errorf(el.Pos(), "use field names (Name: ...) in modkit literals")
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			f(id.Name, kv.Value)
		}
	}
}

// str reads a constant string.
func (r *reader) str(e ast.Expr, what string) Str {
	tv, ok := r.pkg.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		r.errorf(e.Pos(), "%s must be a compile-time constant string", what)
		return Str{Pos: e.Pos(), Bad: true}
	}
	return Str{Value: constant.StringVal(tv.Value), Pos: e.Pos()}
}

// elems returns the elements of a slice literal.
func (r *reader) elems(e ast.Expr, what string) []ast.Expr {
	cl, ok := r.lit(e, what)
	if !ok {
		return nil
	}
	return cl.Elts
}

func (r *reader) readMod(m *Mod, e ast.Expr) {
	cl, ok := r.lit(e, "the sdk.Mod value")
	if !ok {
		return
	}
	r.read(cl, "", fields{
		"Metadata": func(v ast.Expr, what string) {
			md, ok := r.lit(v, what)
			if !ok {
				return
			}
			var id, name, desc Str
			r.read(md, "Metadata.", fields{
				"ID": r.text(&id), "DisplayName": r.text(&name), "Description": r.text(&desc),
				"Icons": func(v ast.Expr, what string) { m.Icons = each(r, v, what, r.readIcon) },
			})
			m.ID, m.IDPos, m.DisplayName, m.Description = id.Value, id.Pos, name.Value, desc.Value
		},
		"AI": func(v ast.Expr, what string) {
			if ai, ok := r.lit(v, what); ok {
				r.read(ai, "AI.", fields{"Tools": func(v ast.Expr, what string) { m.Tools = each(r, v, what, r.readTool) }})
			}
		},
		"Commands":          func(v ast.Expr, what string) { m.Commands = each(r, v, what, r.readCommand) },
		"SlashCommands":     func(v ast.Expr, what string) { m.Slash = each(r, v, what, r.readSlash) },
		"Resources":         func(v ast.Expr, what string) { m.Resources = each(r, v, what, r.readResource) },
		"ResourceTemplates": func(v ast.Expr, what string) { m.Templates = each(r, v, what, r.readTemplate) },
		"Hooks":             func(v ast.Expr, what string) { m.Hooks = each(r, v, what, r.readHook) },
		"Permissions":       func(v ast.Expr, _ string) { m.Permissions = r.permissions(v) },
		"Agents":            func(v ast.Expr, what string) { m.Agents = each(r, v, what, r.readAgent) },
	})
}

// readCommand reads an sdk.Command literal.
func (r *reader) readCommand(e ast.Expr) (Command, bool) {
	return readDecl(r, e, "a command", func(c *Command, cl *ast.CompositeLit) {
		c.Pos = cl.Pos()
		r.read(cl, "command ", fields{
			"ID": r.text(&c.ID), "Title": r.text(&c.Title), "Run": r.handler(&c.HasRun),
			"Scopes": r.texts(&c.Scopes, "command scope"),
		})
	})
}

// readHook reads an sdk.Hook literal.
func (r *reader) readHook(e ast.Expr) (Hook, bool) {
	return readDecl(r, e, "a hook", func(h *Hook, cl *ast.CompositeLit) {
		h.Pos = cl.Pos()
		r.read(cl, "hook ", fields{"BeforeAction": r.text(&h.BeforeAction), "Run": r.handler(&h.HasRun)})
	})
}

// readAgent reads an sdk.Agent literal.
func (r *reader) readAgent(e ast.Expr) (Agent, bool) {
	return readDecl(r, e, "an agent", func(a *Agent, cl *ast.CompositeLit) {
		a.Pos = cl.Pos()
		r.read(cl, "agent ", fields{
			"Name":        r.text(&a.Name),
			"Description": r.text(&a.Description),
			"Tools":       r.texts(&a.Tools, "agent tool name"),
		})
	})
}

// readTool reads a PlainTool or RenderedTool literal.
func (r *reader) readTool(e ast.Expr) (Tool, bool) {
	cl, ok := r.lit(e, "a tool")
	if !ok {
		return Tool{}, false
	}
	t := Tool{Pos: cl.Pos()}
	named, _ := types.Unalias(r.pkg.TypesInfo.TypeOf(cl)).(*types.Named)
	if named == nil || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != SDKPath {
		r.errorf(cl.Pos(), "a tool must be an sdk.PlainTool or sdk.RenderedTool literal")
		return t, false
	}
	args := named.TypeArgs()
	switch named.Obj().Name() {
	case "PlainTool":
		t.In = args.At(0)
	case "RenderedTool":
		t.Rendered = true
		t.In, t.Out = args.At(0), args.At(1)
	default:
		r.errorf(cl.Pos(), "a tool must be an sdk.PlainTool or sdk.RenderedTool literal, not sdk.%s", named.Obj().Name())
		return t, false
	}
	r.read(cl, "tool ", fields{
		"Name":        r.text(&t.Name),
		"Description": r.text(&t.Description),
		"Title":       r.text(&t.Title),
		"Activity":    r.text(&t.Activity),
		"Icons":       func(v ast.Expr, what string) { t.Icons = each(r, v, what, r.readIcon) },
		"Annotations": func(v ast.Expr, what string) {
			if !isNil(r.pkg.TypesInfo, v) {
				t.Annotations = r.annotations(v)
			}
		},
		"Approval": func(v ast.Expr, what string) {
			if !isNil(r.pkg.TypesInfo, v) {
				t.Approval = r.approval(v)
			}
		},
		"ClientActions": func(v ast.Expr, what string) { t.ClientActions = each(r, v, what, r.clientActionKind) },
		"Run":           r.handler(&t.HasRun),
		"Client":        r.flag(&t.Client),
		"Scopes":        r.texts(&t.Scopes, "tool scope"),
		"Task": func(v ast.Expr, what string) {
			t.Task = r.str(v, what)
			if !t.Task.Bad && t.Task.Value != "" && t.Task.Value != "optional" && t.Task.Value != "required" {
				r.errorf(v.Pos(), "tool Task is %q: want sdk.TaskOptional or sdk.TaskRequired", t.Task.Value)
			}
		},
		"View": func(v ast.Expr, _ string) {
			view, ok := r.resolve(v).(*ast.CompositeLit)
			if !ok {
				r.errorf(v.Pos(), "tool View must be a composite literal, so modgen can tell whether it renders HTML")
				t.HasText = true // not to be reported again
				return
			}
			r.read(view, "tool View ", fields{"Render": r.handler(&t.HasView), "Text": r.handler(&t.HasText)})
		},
	})
	declaredAt(cl.Pos(), &t.Name, &t.Description)
	return t, true
}

// annotations reads an sdk.Annotations literal.
func (r *reader) annotations(e ast.Expr) *Annotations {
	a := &Annotations{}
	cl, ok := r.lit(e, "tool Annotations")
	if !ok {
		return a
	}
	r.read(cl, "tool Annotations ", fields{
		"ReadOnly":    r.flag(&a.ReadOnly),
		"Destructive": r.flag(&a.Destructive),
		"Idempotent":  r.flag(&a.Idempotent),
		"OpenWorld":   r.flag(&a.OpenWorld),
	})
	return a
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// short formats a position as base file name, line and column.
func short(p token.Position) string {
	return sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

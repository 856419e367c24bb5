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
	Tools       []Tool
	Commands    []Command
	Slash       []Slash
	Resources   []Resource
	Templates   []ResourceTemplate
	Hooks       []Hook
	Agents      []Agent
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
	r.keyed(cl, func(key string, v ast.Expr) {
		switch key {
		case "Metadata":
			md, ok := r.lit(v, "Metadata")
			if !ok {
				return
			}
			r.keyed(md, func(key string, v ast.Expr) {
				switch key {
				case "ID":
					id := r.str(v, "Metadata.ID")
					m.ID, m.IDPos = id.Value, id.Pos
				case "DisplayName":
					m.DisplayName = r.str(v, "Metadata.DisplayName").Value
				case "Description":
					m.Description = r.str(v, "Metadata.Description").Value
				}
			})
		case "AI":
			ai, ok := r.lit(v, "AI")
			if !ok {
				return
			}
			r.keyed(ai, func(key string, v ast.Expr) {
				if key == "Tools" {
					for _, t := range r.elems(v, "AI.Tools") {
						if tool, ok := r.readTool(t); ok {
							m.Tools = append(m.Tools, tool)
						}
					}
				}
			})
		case "Commands":
			for _, el := range r.elems(v, "Commands") {
				c, ok := r.lit(el, "a command")
				if !ok {
					continue
				}
				cmd := Command{Pos: c.Pos()}
				r.keyed(c, func(key string, v ast.Expr) {
					switch key {
					case "ID":
						cmd.ID = r.str(v, "command ID")
					case "Title":
						cmd.Title = r.str(v, "command Title")
					case "Run":
						cmd.HasRun = !isNil(r.pkg.TypesInfo, v)
					case "Scopes":
						cmd.Scopes = r.scopes(v, "command")
					}
				})
				m.Commands = append(m.Commands, cmd)
			}
		case "SlashCommands":
			for _, el := range r.elems(v, "SlashCommands") {
				if sc, ok := r.readSlash(el); ok {
					m.Slash = append(m.Slash, sc)
				}
			}
		case "Resources":
			for _, el := range r.elems(v, "Resources") {
				if res, ok := r.readResource(el); ok {
					m.Resources = append(m.Resources, res)
				}
			}
		case "ResourceTemplates":
			for _, el := range r.elems(v, "ResourceTemplates") {
				if t, ok := r.readTemplate(el); ok {
					m.Templates = append(m.Templates, t)
				}
			}
		case "Hooks":
			for _, el := range r.elems(v, "Hooks") {
				c, ok := r.lit(el, "a hook")
				if !ok {
					continue
				}
				h := Hook{Pos: c.Pos()}
				r.keyed(c, func(key string, v ast.Expr) {
					switch key {
					case "BeforeAction":
						h.BeforeAction = r.str(v, "hook BeforeAction")
					case "Run":
						h.HasRun = !isNil(r.pkg.TypesInfo, v)
					}
				})
				m.Hooks = append(m.Hooks, h)
			}
		case "Permissions":
			m.Permissions = r.permissions(v)
		case "Agents":
			for _, el := range r.elems(v, "Agents") {
				c, ok := r.lit(el, "an agent")
				if !ok {
					continue
				}
				a := Agent{Pos: c.Pos()}
				r.keyed(c, func(key string, v ast.Expr) {
					switch key {
					case "Name":
						a.Name = r.str(v, "agent Name")
					case "Description":
						a.Description = r.str(v, "agent Description")
					case "Tools":
						for _, t := range r.elems(v, "agent Tools") {
							a.Tools = append(a.Tools, r.str(t, "agent tool name"))
						}
					}
				})
				m.Agents = append(m.Agents, a)
			}
		}
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
	r.keyed(cl, func(key string, v ast.Expr) {
		switch key {
		case "Name":
			t.Name = r.str(v, "tool Name")
		case "Description":
			t.Description = r.str(v, "tool Description")
		case "Title":
			t.Title = r.str(v, "tool Title")
		case "Activity":
			t.Activity = r.str(v, "tool Activity")
		case "Annotations":
			if !isNil(r.pkg.TypesInfo, v) {
				t.Annotations = r.annotations(v)
			}
		case "Approval":
			if !isNil(r.pkg.TypesInfo, v) {
				t.Approval = r.approval(v)
			}
		case "ClientActions":
			for _, el := range r.elems(v, "tool ClientActions") {
				if k, ok := r.clientActionKind(el); ok {
					t.ClientActions = append(t.ClientActions, k)
				}
			}
		case "Run":
			t.HasRun = !isNil(r.pkg.TypesInfo, v)
		case "Client":
			tv, ok := r.pkg.TypesInfo.Types[v]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
				r.errorf(v.Pos(), "tool Client must be a compile-time constant bool")
				return
			}
			t.Client = constant.BoolVal(tv.Value)
		case "Scopes":
			t.Scopes = r.scopes(v, "tool")
		case "Task":
			t.Task = r.str(v, "tool Task")
			if !t.Task.Bad && t.Task.Value != "" && t.Task.Value != "optional" && t.Task.Value != "required" {
				r.errorf(v.Pos(), "tool Task is %q: want sdk.TaskOptional or sdk.TaskRequired", t.Task.Value)
			}
		case "View":
			view, ok := r.resolve(v).(*ast.CompositeLit)
			if !ok {
				r.errorf(v.Pos(), "tool View must be a composite literal, so modgen can tell whether it renders HTML")
				t.HasText = true // not to be reported again
				return
			}
			r.keyed(view, func(key string, v ast.Expr) {
				switch {
				case isNil(r.pkg.TypesInfo, v):
				case key == "Render":
					t.HasView = true
				case key == "Text":
					t.HasText = true
				}
			})
		}
	})
	if t.Name.Pos == token.NoPos {
		t.Name.Pos = cl.Pos()
	}
	if t.Description.Pos == token.NoPos {
		t.Description.Pos = cl.Pos()
	}
	return t, true
}

// annotations reads an sdk.Annotations literal.
func (r *reader) annotations(e ast.Expr) *Annotations {
	a := &Annotations{}
	cl, ok := r.lit(e, "tool Annotations")
	if !ok {
		return a
	}
	r.keyed(cl, func(key string, v ast.Expr) {
		tv, ok := r.pkg.TypesInfo.Types[v]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
			r.errorf(v.Pos(), "tool Annotations %s must be a compile-time constant bool", key)
			return
		}
		b := constant.BoolVal(tv.Value)
		switch key {
		case "ReadOnly":
			a.ReadOnly = b
		case "Destructive":
			a.Destructive = b
		case "Idempotent":
			a.Idempotent = b
		case "OpenWorld":
			a.OpenWorld = b
		}
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

package build

import (
	"bytes"
	"encoding/json"
	"go/token"
	"go/types"
	"path/filepath"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"golang.org/x/tools/go/packages"

	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/modgen/codegen"
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/internal/modgen/schema"
	"github.com/modkit/modkit/manifest"
)

// Output is what modgen writes for one mod package.
type Output struct {
	// Dir is the package directory the files belong in.
	Dir string
	// Manifest is the content of mod.manifest.json.
	Manifest []byte
	// Go is the content of zz_generated.modgen.go.
	Go []byte
}

// Files returns the output as file paths and contents, in a stable order.
func (o *Output) Files() []File {
	return []File{
		{Path: filepath.Join(o.Dir, manifest.FileName), Data: o.Manifest},
		{Path: filepath.Join(o.Dir, load.GeneratedFile), Data: o.Go},
	}
}

// File is one generated file.
type File struct {
	Path string
	Data []byte
}

// Mod runs every pass on a loaded mod package. It returns the output, or
// nil when there are errors; diagnostics include warnings either way.
func Mod(pkg *packages.Package) (*Output, []load.Diag) {
	m, diags := load.FindMod(pkg)
	if m == nil {
		return nil, diags
	}
	b := &builder{pkg: pkg, diags: diags}
	b.rules(m)

	docs := schema.NewDocs(pkg.Fset, pkg.Syntax)
	in := &schema.Generator{Fset: pkg.Fset, Docs: docs, Mode: schema.Input, Module: load.ModulePath(pkg)}
	out := &schema.Generator{Fset: pkg.Fset, Docs: docs, Mode: schema.Output, Module: load.ModulePath(pkg)}

	mf := &manifest.Manifest{
		FormatVersion: manifest.FormatVersion,
		ID:            m.ID,
		DisplayName:   m.DisplayName,
		Description:   m.Description,
		GoPackage:     pkg.PkgPath,
		SourceHash:    SourceHash(pkg),
		Icons:         b.icons("mod "+m.ID, m.Icons),
		Tools:         []manifest.Tool{},
	}
	ds := decls{}
	var tools []codegen.Tool
	for _, t := range m.Tools {
		if _, ok := types.Unalias(t.In).Underlying().(*types.Struct); !ok {
			b.errorf(t.Pos, "tool %s: input type %s must be a struct, so the model sends a JSON object", t.Name.Value, types.TypeString(t.In, types.RelativeTo(pkg.Types)))
			continue
		}
		ins := described(in.Root(t.In, t.Pos), "Input of the "+t.Name.Value+" tool.")
		mt := manifest.Tool{
			Name:        t.Name.Value,
			Title:       t.Title.Value,
			Description: t.Description.Value,
			Activity:    t.Activity.Value,
			Icons:       b.icons("tool "+t.Name.Value, t.Icons),
			Kind:        manifest.KindPlain,
			InputSchema: mustJSON(ins),
			HasView:     t.HasView,
		}
		mt.ClientActions = clientActionNames(t)
		if a := t.Annotations; a != nil {
			mt.Annotations = &manifest.Annotations{ReadOnly: a.ReadOnly, Destructive: a.Destructive, Idempotent: a.Idempotent, OpenWorld: a.OpenWorld}
		}
		if a := t.Approval; a != nil {
			mt.Approval = approval(a)
		}
		mt.Runs = runs(t)
		mt.Task = manifest.TaskSupport(t.Task.Value)
		mt.Scopes = values(t.Scopes)
		if mt.Runs == manifest.RunsInClient && len(t.ClientActions) > 0 {
			b.errorf(t.ClientActions[0].Ref, "tool %s runs only in the client application, which acts on its screen itself: it emits no client actions; give it a Run or drop its ClientActions", t.Name.Value)
		}
		if t.Rendered {
			mt.Kind = manifest.KindRendered
			mt.ResultSchema = mustJSON(described(out.Root(t.Out, t.Pos), "Result of the "+t.Name.Value+" tool."))
		}
		mf.Tools = append(mf.Tools, mt)
		ds.add("tools", toolDecl(t))
		tools = append(tools, codegen.Tool{Name: t.Name.Value, Input: t.In, Schema: ins})
	}
	var actions []codegen.ClientAction
	mf.ClientActions, actions = b.clientActions(m, in, ds)
	for _, e := range append(in.Errors(), out.Errors()...) {
		b.diags = append(b.diags, load.Diag{Pos: e.Pos, Msg: e.Msg})
	}
	for _, c := range m.Commands {
		mf.Commands = append(mf.Commands, manifest.Command{ID: c.ID.Value, Title: c.Title.Value, Scopes: values(c.Scopes)})
		ds.add("commands", decl{noun: "command", name: c.ID.Value, pos: c.Pos, fields: map[string]load.Str{"id": c.ID, "title": c.Title},
			items: map[string][]load.Str{"scopes": c.Scopes}})
	}
	mf.Resources, mf.ResourceTemplates, mf.SlashCommands = b.features(m, ds)
	for _, h := range m.Hooks {
		mf.Hooks = append(mf.Hooks, manifest.Hook{BeforeAction: h.BeforeAction.Value})
		ds.add("hooks", decl{noun: "hook", name: h.BeforeAction.Value, pos: h.Pos, fields: map[string]load.Str{"beforeAction": h.BeforeAction}})
	}
	for _, a := range m.Agents {
		ma := manifest.Agent{Name: a.Name.Value, Description: a.Description.Value, Tools: []string{}}
		for _, t := range a.Tools {
			ma.Tools = append(ma.Tools, t.Value)
		}
		mf.Agents = append(mf.Agents, ma)
		ds.add("agents", decl{noun: "agent", name: a.Name.Value, pos: a.Pos, fields: map[string]load.Str{"name": a.Name}, items: map[string][]load.Str{"tools": a.Tools}})
	}
	mf.Permissions = b.permissions(m)
	b.rulebook(m, mf, ds)
	load.SortDiags(b.diags)
	if b.failed() {
		return nil, b.diags
	}
	for i, t := range mf.Tools {
		for _, raw := range []json.RawMessage{t.InputSchema, t.ResultSchema} {
			if len(raw) == 0 {
				continue
			}
			if err := compiles(raw); err != nil {
				b.errorf(m.Tools[i].Pos, "tool %s: modgen emitted a schema that does not compile (a modgen bug): %v", t.Name, err)
			}
		}
	}
	for _, k := range mf.ClientActions {
		if err := compiles(k.ParamsSchema); err != nil {
			b.errorf(m.Pos, "client action kind %s: modgen emitted a schema that does not compile (a modgen bug): %v", k.Kind, err)
		}
	}
	if b.failed() {
		return nil, b.diags
	}
	mjson, err := manifest.Encode(mf)
	if err != nil {
		b.errorf(m.Pos, "%v", err)
		return nil, b.diags
	}
	goSrc, err := codegen.Generate(&codegen.File{
		PkgPath:  pkg.PkgPath,
		PkgName:  pkg.Name,
		ModVar:   m.Var.Name(),
		Manifest: mjson,
		Tools:    tools,
		Actions:  actions,
		OTel:     importsOTel(pkg),
	})
	if err != nil {
		b.errorf(m.Pos, "%v", err)
		return nil, b.diags
	}
	return &Output{Dir: packageDir(pkg), Manifest: mjson, Go: goSrc}, b.diags
}

// toolDecl is where t's fields are, for the rulebook.
func toolDecl(t load.Tool) decl {
	d := decl{noun: "tool", name: t.Name.Value, pos: t.Pos, fields: map[string]load.Str{
		"name": t.Name, "description": t.Description,
	}, items: map[string][]load.Str{}}
	if a := t.Approval; a != nil {
		// load reports an approval with neither or both of Reason and Ask.
		reported := a.Reason.Bad || (a.ByInput && a.Reason.Pos.IsValid()) || (!a.ByInput && a.Reason.Value == "")
		d.fields["approval"] = load.Str{Pos: a.Pos, Bad: reported}
	}
	for _, k := range t.ClientActions {
		d.items["clientActions"] = append(d.items["clientActions"], load.Str{Value: k.Kind.Value, Pos: k.Ref, Bad: k.Kind.Bad})
	}
	d.items["scopes"] = t.Scopes
	return d
}

// compiles checks an emitted schema with the JSON Schema implementation
// the host uses.
func compiles(raw json.RawMessage) error {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("mem://schema.json", bytes.NewReader(raw)); err != nil {
		return err
	}
	_, err := c.Compile("mem://schema.json")
	return err
}

func mustJSON(s *schema.Schema) json.RawMessage {
	raw, _ := s.MarshalJSON()
	return raw
}

type builder struct {
	pkg   *packages.Package
	diags []load.Diag
}

func (b *builder) errorf(pos token.Pos, format string, args ...any) {
	b.diags = append(b.diags, load.Diag{Pos: b.pkg.Fset.Position(pos), Msg: sprintf(format, args...)})
}

func (b *builder) warnf(pos token.Pos, format string, args ...any) {
	b.diags = append(b.diags, load.Diag{Pos: b.pkg.Fset.Position(pos), Msg: sprintf(format, args...), Warning: true})
}

func (b *builder) failed() bool {
	for _, d := range b.diags {
		if !d.Warning {
			return true
		}
	}
	return false
}

// packageDir returns the directory of the package's Go files.
func packageDir(pkg *packages.Package) string {
	if len(pkg.GoFiles) > 0 {
		return filepath.Dir(pkg.GoFiles[0])
	}
	return ""
}

// SourceHash returns "sha256:<hex>" over the package's Go files other than
// the generated one; see freshness.Files, which the host checks it with.
func SourceHash(pkg *packages.Package) string {
	return freshness.Files(pkg.GoFiles)
}

// described returns root with description doc when its type has no doc
// comment, so that a model reads what the object is.
func described(root *schema.Schema, doc string) *schema.Schema {
	if root.Description != "" {
		return root
	}
	c := *root
	c.Description = doc
	return &c
}

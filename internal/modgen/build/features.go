package build

import (
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

// features returns the mod's resources, resource templates and slash
// commands as the manifest records them, adding their declarations to ds
// for the rulebook. It checks what only the Go source shows: Read,
// Complete.
func (b *builder) features(m *load.Mod, ds decls) ([]manifest.Resource, []manifest.ResourceTemplate, []manifest.SlashCommand) {
	var resources []manifest.Resource
	for _, r := range m.Resources {
		if !r.HasRead {
			b.errorf(r.Pos, "resource %s has no Read: set the function that returns its contents", r.URI.Value)
		}
		resources = append(resources, manifest.Resource{
			URI: r.URI.Value, Name: r.Name.Value, Title: r.Title.Value,
			Description: r.Description.Value, MIMEType: r.MIMEType.Value, Scopes: values(r.Scopes),
			Icons: b.icons("resource "+r.URI.Value, r.Icons),
		})
		ds.add("resources", decl{noun: "resource", name: r.URI.Value, pos: r.Pos, fields: map[string]load.Str{
			"uri": r.URI, "name": r.Name, "description": r.Description, "mimeType": r.MIMEType,
		}, items: map[string][]load.Str{"scopes": r.Scopes}})
	}

	var templates []manifest.ResourceTemplate
	for _, t := range m.Templates {
		if !t.HasRead {
			b.errorf(t.Pos, "resource template %s has no Read: set the function that returns a resource's contents", t.URITemplate.Value)
		}
		templates = append(templates, manifest.ResourceTemplate{
			URITemplate: t.URITemplate.Value, Name: t.Name.Value, Title: t.Title.Value,
			Description: t.Description.Value, MIMEType: t.MIMEType.Value, Completes: t.HasComplete, Scopes: values(t.Scopes),
			Icons: b.icons("resource template "+t.URITemplate.Value, t.Icons),
		})
		ds.add("resourceTemplates", decl{noun: "resource template", name: t.URITemplate.Value, pos: t.Pos, fields: map[string]load.Str{
			"uriTemplate": t.URITemplate, "name": t.Name, "description": t.Description, "mimeType": t.MIMEType,
		}, items: map[string][]load.Str{"scopes": t.Scopes}})
	}

	var slash []manifest.SlashCommand
	for _, s := range m.Slash {
		ms := manifest.SlashCommand{ID: s.ID.Value, Title: s.Title.Value, Description: s.Description.Value, Completes: s.HasComplete,
			Icons: b.icons("slash command "+s.ID.Value, s.Icons)}
		var args []load.Str
		for _, a := range s.Args {
			ms.Arguments = append(ms.Arguments, manifest.Argument{Name: a.Name.Value, Description: a.Description.Value, Required: a.Required})
			at := a.Name
			if !at.Pos.IsValid() {
				at.Pos = a.Pos
			}
			args = append(args, at)
		}
		if s.HasComplete && len(s.Args) == 0 {
			b.errorf(s.Pos, "slash command %s has Complete but no Arguments to complete", s.ID.Value)
		}
		ms.Scopes = values(s.Scopes)
		slash = append(slash, ms)
		ds.add("slashCommands", decl{noun: "slash command", name: s.ID.Value, pos: s.Pos,
			fields: map[string]load.Str{"id": s.ID, "description": s.Description},
			items:  map[string][]load.Str{"arguments": args, "scopes": s.Scopes}})
	}
	return resources, templates, slash
}

// values returns the values of strs, nil for none.
func values(strs []load.Str) []string {
	var out []string
	for _, s := range strs {
		out = append(out, s.Value)
	}
	return out
}

package build

import (
	"go/token"
	"strings"

	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/internal/uritemplate"
	"github.com/modkit/modkit/manifest"
)

// features checks the mod's resources, resource templates and slash
// command arguments with the rules manifest.Validate applies, each at its
// literal, and returns them as the manifest records them.
func (b *builder) features(m *load.Mod) ([]manifest.Resource, []manifest.ResourceTemplate, []manifest.SlashCommand) {
	names := map[string]token.Pos{}
	name := func(what string, n load.Str) {
		if n.Bad {
			return
		}
		if msg := manifest.CheckResourceName(n.Value); msg != "" {
			b.errorf(n.Pos, "%s: %s", what, msg)
			return
		}
		if first, dup := names[n.Value]; dup {
			b.errorf(n.Pos, "%s: duplicate name %q (first at %s)", what, n.Value, b.short(first))
			return
		}
		names[n.Value] = n.Pos
	}
	common := func(what string, desc, mime load.Str) {
		if !desc.Bad && strings.TrimSpace(desc.Value) == "" {
			b.errorf(desc.Pos, "%s has an empty description: say what it holds", what)
		}
		if msg := manifest.CheckMIMEType(mime.Value); msg != "" && !mime.Bad {
			b.errorf(mime.Pos, "%s: %s", what, msg)
		}
	}

	var resources []manifest.Resource
	uris := map[string]token.Pos{}
	for _, r := range m.Resources {
		what := "resource " + r.URI.Value
		if !r.URI.Bad {
			if msg := manifest.CheckResourceURI(r.URI.Value); msg != "" {
				b.errorf(r.URI.Pos, "resource: %s", msg)
			} else if first, dup := uris[r.URI.Value]; dup {
				b.errorf(r.URI.Pos, "duplicate resource uri %q (first at %s)", r.URI.Value, b.short(first))
			} else {
				uris[r.URI.Value] = r.URI.Pos
			}
		}
		name(what, r.Name)
		common(what, r.Description, r.MIMEType)
		if !r.HasRead {
			b.errorf(r.Pos, "%s has no Read: set the function that returns its contents", what)
		}
		resources = append(resources, manifest.Resource{
			URI: r.URI.Value, Name: r.Name.Value, Title: r.Title.Value,
			Description: r.Description.Value, MIMEType: r.MIMEType.Value,
		})
	}

	var templates []manifest.ResourceTemplate
	tmpls := map[string]token.Pos{}
	for _, t := range m.Templates {
		what := "resource template " + t.URITemplate.Value
		if !t.URITemplate.Bad {
			if _, err := uritemplate.Parse(t.URITemplate.Value); err != nil {
				b.errorf(t.URITemplate.Pos, "resource template: %v", err)
			} else if first, dup := tmpls[t.URITemplate.Value]; dup {
				b.errorf(t.URITemplate.Pos, "duplicate resource template %q (first at %s)", t.URITemplate.Value, b.short(first))
			} else {
				tmpls[t.URITemplate.Value] = t.URITemplate.Pos
			}
		}
		name(what, t.Name)
		common(what, t.Description, t.MIMEType)
		if !t.HasRead {
			b.errorf(t.Pos, "%s has no Read: set the function that returns a resource's contents", what)
		}
		templates = append(templates, manifest.ResourceTemplate{
			URITemplate: t.URITemplate.Value, Name: t.Name.Value, Title: t.Title.Value,
			Description: t.Description.Value, MIMEType: t.MIMEType.Value, Completes: t.HasComplete,
		})
	}

	var slash []manifest.SlashCommand
	for _, s := range m.Slash {
		ms := manifest.SlashCommand{ID: s.ID.Value, Title: s.Title.Value, Description: s.Description.Value, Completes: s.HasComplete}
		seen := map[string]bool{}
		optional := ""
		for _, a := range s.Args {
			ms.Arguments = append(ms.Arguments, manifest.Argument{Name: a.Name.Value, Description: a.Description.Value, Required: a.Required})
			// One argument at a time, so each problem is at its literal;
			// CheckArguments is what manifest.Validate runs on the list.
			if a.Name.Bad {
				continue
			}
			for _, msg := range manifest.CheckArguments([]manifest.Argument{{Name: a.Name.Value}}) {
				b.errorf(a.Name.Pos, "slash command %s: %s", s.ID.Value, msg)
			}
			if seen[a.Name.Value] && a.Name.Value != "" {
				b.errorf(a.Name.Pos, "slash command %s: argument %q is declared twice", s.ID.Value, a.Name.Value)
			}
			seen[a.Name.Value] = true
			if a.Required && optional != "" {
				b.errorf(a.Pos, "slash command %s: required argument %q follows optional argument %q: a person types them in order", s.ID.Value, a.Name.Value, optional)
			}
			if !a.Required && optional == "" {
				optional = a.Name.Value
			}
		}
		if s.HasComplete && len(s.Args) == 0 {
			b.errorf(s.Pos, "slash command %s has Complete but no Arguments to complete", s.ID.Value)
		}
		slash = append(slash, ms)
	}
	return resources, templates, slash
}

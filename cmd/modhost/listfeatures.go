package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
)

// listedPrompt is a slash command as list prompts shows it: an MCP prompt.
type listedPrompt struct {
	Name        string           `json:"name"`
	Mod         string           `json:"mod"`
	Description string           `json:"description"`
	Arguments   []listedArgument `json:"arguments"`
	// Scopes are the OAuth scopes a caller must hold to get the prompt;
	// absent when it needs none.
	Scopes []string `json:"scopes,omitempty"`
}

type listedArgument struct {
	Name     string `json:"name"`
	Required bool   `json:"required,omitempty"`
}

// listedResource is a resource or a resource template.
type listedResource struct {
	URI         string `json:"uri,omitempty"`
	URITemplate string `json:"uriTemplate,omitempty"`
	Name        string `json:"name"`
	Mod         string `json:"mod"`
	MIMEType    string `json:"mimeType,omitempty"`
	Description string `json:"description"`
	// Scopes are the OAuth scopes a caller must hold to read it; absent
	// when it needs none.
	Scopes []string `json:"scopes,omitempty"`
}

// listPrompts prints the loaded mods' slash commands as prompts: name,
// mod, usage, description.
func listPrompts(e *env, h *host.Host, asJSON bool) int {
	prompts := slices.DeleteFunc(h.Prompts(), func(p host.Prompt) bool { return len(missingScopes(e.scopes, p.Scopes)) > 0 })
	if asJSON {
		out := make([]listedPrompt, 0, len(prompts))
		for _, p := range prompts {
			lp := listedPrompt{Name: p.ID, Mod: p.Mod, Description: p.Description, Arguments: []listedArgument{}, Scopes: p.Scopes}
			for _, a := range p.Arguments {
				lp.Arguments = append(lp.Arguments, listedArgument{Name: a.Name, Required: a.Required})
			}
			out = append(out, lp)
		}
		data, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", data)
		return listStatus(h)
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, p := range prompts {
		usage := []string{"/" + p.ID}
		for _, a := range p.Arguments {
			if a.Required {
				usage = append(usage, "<"+a.Name+">")
			} else {
				usage = append(usage, "["+a.Name+"]")
			}
		}
		desc := scopeWords(p.Scopes) + firstLine(p.Description)
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", p.ID, p.Mod, strings.Join(usage, " "), desc)
	}
	w.Flush()
	return listStatus(h)
}

// listResources prints the loaded mods' resources, then their templates:
// URI, mod, MIME type, description.
func listResources(e *env, h *host.Host, asJSON bool) int {
	var out []listedResource
	for _, r := range h.Resources() {
		out = append(out, listedResource{URI: r.URI, Name: r.Name, Mod: r.Mod, MIMEType: r.MIMEType, Description: r.Description, Scopes: r.Scopes})
	}
	for _, t := range h.ResourceTemplates() {
		out = append(out, listedResource{URITemplate: t.URITemplate, Name: t.Name, Mod: t.Mod, MIMEType: t.MIMEType, Description: t.Description, Scopes: t.Scopes})
	}
	out = slices.DeleteFunc(out, func(r listedResource) bool { return len(missingScopes(e.scopes, r.Scopes)) > 0 })
	if asJSON {
		if out == nil {
			out = []listedResource{}
		}
		data, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", data)
		return listStatus(h)
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, r := range out {
		uri := r.URI
		if uri == "" {
			uri = r.URITemplate
		}
		mt := r.MIMEType
		if mt == "" {
			mt = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s%s\n", uri, r.Mod, mt, scopeWords(r.Scopes), firstLine(r.Description))
	}
	w.Flush()
	return listStatus(h)
}

// writeFeatures writes inspect's sections on slash commands (which are
// the mod's MCP prompts), resources and resource templates.
func writeFeatures(out io.Writer, m *manifest.Manifest) {
	if len(m.SlashCommands) > 0 {
		fmt.Fprintf(out, "\nslash commands (MCP prompts):\n")
		for _, c := range m.SlashCommands {
			fmt.Fprintf(out, "  /%s: %s\n", c.ID, c.Description)
			for _, a := range c.Arguments {
				req := "optional"
				if a.Required {
					req = "required"
				}
				fmt.Fprintf(out, "    %s (%s): %s\n", a.Name, req, a.Description)
			}
			if c.Completes {
				fmt.Fprintf(out, "    completes its arguments\n")
			}
			writeScopes(out, c.Scopes)
		}
	}
	if len(m.Resources) > 0 {
		fmt.Fprintf(out, "\nresources:\n")
		for _, r := range m.Resources {
			fmt.Fprintf(out, "  %s (%s)%s: %s\n", r.URI, r.Name, mimeWords(r.MIMEType), r.Description)
			writeScopes(out, r.Scopes)
		}
	}
	if len(m.ResourceTemplates) > 0 {
		fmt.Fprintf(out, "\nresource templates:\n")
		for _, t := range m.ResourceTemplates {
			fmt.Fprintf(out, "  %s (%s)%s: %s\n", t.URITemplate, t.Name, mimeWords(t.MIMEType), t.Description)
			if t.Completes {
				fmt.Fprintf(out, "    completes its variables\n")
			}
			writeScopes(out, t.Scopes)
		}
	}
}

// writeScopes writes inspect's line of the scopes a feature needs, if
// any.
func writeScopes(out io.Writer, scopes []string) {
	if len(scopes) > 0 {
		fmt.Fprintf(out, "    scopes: %s\n", strings.Join(scopes, " "))
	}
}

// scopeWords are list's note of the scopes a feature needs, before its
// description: "" for none.
func scopeWords(scopes []string) string {
	if len(scopes) == 0 {
		return ""
	}
	return "(scopes " + strings.Join(scopes, " ") + ") "
}

func mimeWords(mt string) string {
	if mt == "" {
		return ""
	}
	return ", " + mt
}

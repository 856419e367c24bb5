package manifest

import (
	"fmt"
	"mime"
	"net/url"
	"regexp"
	"strings"

	"github.com/modkit/modkit/internal/uritemplate"
)

// Resource is a document a mod offers at a fixed URI.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Scopes are the OAuth scopes a caller must hold to see and read the
	// resource, as for a tool's.
	Scopes []string `json:"scopes,omitempty"`
	// Icons stand for the resource in a client's interface.
	Icons []Icon `json:"icons,omitempty"`
}

// ResourceTemplate is a family of resources named by a URI template.
type ResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Completes says the mod suggests values for the variables.
	Completes bool `json:"completes,omitempty"`
	// Scopes are the OAuth scopes a caller must hold to see the template
	// and read its resources, as for a tool's.
	Scopes []string `json:"scopes,omitempty"`
	// Icons stand for the template's resources in a client's interface.
	Icons []Icon `json:"icons,omitempty"`
}

// The rules below are shared by Validate and modgen, so that a manifest
// modgen writes always validates and both say the same words.

var (
	resourceName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`)
	argumentName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)
	varName      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	uriScheme    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// CheckResourceURI returns what is wrong with a resource's URI, or "".
func CheckResourceURI(uri string) string {
	switch {
	case uri == "":
		return "uri is empty"
	case strings.ContainsAny(uri, " \t\r\n"):
		return fmt.Sprintf("uri %q contains white space", uri)
	case strings.ContainsAny(uri, "{}"):
		return fmt.Sprintf("uri %q has a {variable}: declare it as a resource template", uri)
	case !uriScheme.MatchString(uri):
		return fmt.Sprintf("uri %q has no scheme, like \"mymod://\"", uri)
	}
	if _, err := url.Parse(uri); err != nil {
		return fmt.Sprintf("uri %q does not parse: %v", uri, err)
	}
	return ""
}

// CheckResourceName returns what is wrong with the name of a resource or
// resource template, or "".
func CheckResourceName(name string) string {
	switch {
	case name == "":
		return "name is empty"
	case !resourceName.MatchString(name):
		return fmt.Sprintf("name %q must be letters, digits, '_', '.' or '-', starting with a letter", name)
	}
	return ""
}

// CheckMIMEType returns what is wrong with a declared MIME type, or "".
// Empty is allowed.
func CheckMIMEType(mt string) string {
	if mt == "" {
		return ""
	}
	if _, _, err := mime.ParseMediaType(mt); err != nil || !strings.Contains(mt, "/") {
		return fmt.Sprintf("mimeType %q is not a MIME type like \"text/plain\"", mt)
	}
	return ""
}

// CheckArguments returns what is wrong with a slash command's declared
// arguments, one message per problem, each naming the argument.
func CheckArguments(args []Argument) []string {
	var out []string
	for _, p := range argumentProblems(args) {
		out = append(out, p.msg)
	}
	return out
}

// argProblem is one problem with one argument.
type argProblem struct {
	rule *Rule
	item int
	msg  string
}

func argumentProblems(args []Argument) []argProblem {
	var out []argProblem
	seen := map[string]bool{}
	optional := ""
	for i, a := range args {
		switch {
		case a.Name == "":
			out = append(out, argProblem{ruleArgumentName, i, fmt.Sprintf("arguments[%d]: name is empty", i)})
			continue
		case !argumentName.MatchString(a.Name):
			out = append(out, argProblem{ruleArgumentName, i, fmt.Sprintf("argument %q: the name must be letters, digits, '_' or '-', starting with a letter", a.Name)})
		}
		if seen[a.Name] {
			out = append(out, argProblem{ruleArgumentUnique, i, fmt.Sprintf("argument %q is declared twice", a.Name)})
		}
		seen[a.Name] = true
		if a.Required && optional != "" {
			out = append(out, argProblem{ruleArgumentOrder, i, fmt.Sprintf("required argument %q follows optional argument %q: a person types them in order", a.Name, optional)})
		}
		if !a.Required && optional == "" {
			optional = a.Name
		}
	}
	return out
}

func (v *validator) validateFeatures(m *Manifest) {
	type named struct {
		entry string
		at    Location
	}
	uris, names := map[string]int{}, map[string]named{}
	name := func(entry string, loc Location, n string) {
		if msg := CheckResourceName(n); msg != "" {
			v.rule(ruleResourceName, loc, entry, msg)
			return
		}
		if first, dup := names[n]; dup {
			v.problems = append(v.problems, Problem{Entry: entry, Message: "duplicate name", Rule: ruleResourceNameUnique.Name, At: loc, First: first.entry, FirstAt: first.at})
			return
		}
		names[n] = named{entry, loc}
	}
	for i, r := range m.Resources {
		entry := entryOf("resources", i, r.URI)
		if msg := CheckResourceURI(r.URI); msg != "" {
			v.rule(ruleResourceURI, at("resources", i, "uri"), entry, msg)
		} else if j, dup := uris[r.URI]; dup {
			v.dup(ruleResourceURIUnique, at("resources", i, "uri"), entry, "duplicate uri", at("resources", j, "uri"))
		} else {
			uris[r.URI] = i
		}
		name(entry, at("resources", i, "name"), r.Name)
		v.described(ruleResourceDescription, "resources", i, "description", entry, r.Description)
		if msg := CheckMIMEType(r.MIMEType); msg != "" {
			v.rule(ruleResourceMIMEType, at("resources", i, "mimeType"), entry, msg)
		}
		v.scopes(ruleResourceScope, "resources", i, entry, r.Scopes)
		v.icons(entry, r.Icons)
	}
	templates := map[string]int{}
	for i, t := range m.ResourceTemplates {
		entry := entryOf("resourceTemplates", i, t.URITemplate)
		if _, err := uritemplate.Parse(t.URITemplate); err != nil {
			v.rule(ruleTemplateURI, at("resourceTemplates", i, "uriTemplate"), entry, err.Error())
		} else if j, dup := templates[t.URITemplate]; dup {
			v.dup(ruleTemplateURIUnique, at("resourceTemplates", i, "uriTemplate"), entry, "duplicate uriTemplate", at("resourceTemplates", j, "uriTemplate"))
		} else {
			templates[t.URITemplate] = i
		}
		name(entry, at("resourceTemplates", i, "name"), t.Name)
		v.described(ruleResourceDescription, "resourceTemplates", i, "description", entry, t.Description)
		if msg := CheckMIMEType(t.MIMEType); msg != "" {
			v.rule(ruleResourceMIMEType, at("resourceTemplates", i, "mimeType"), entry, msg)
		}
		v.scopes(ruleResourceScope, "resourceTemplates", i, entry, t.Scopes)
		v.icons(entry, t.Icons)
	}
	for i, s := range m.SlashCommands {
		entry := entryOf("slashCommands", i, s.ID)
		for _, p := range argumentProblems(s.Arguments) {
			v.rule(p.rule, Location{List: "slashCommands", Index: i, Field: "arguments", Item: p.item}, entry, p.msg)
		}
	}
}

// URITemplate is a parsed URI template of RFC 6570 level 1: literal text
// and {variables}.
//
// Deprecated: a host matches resource templates itself; a mod needs no
// parser of its own. Kept for code written against it.
type URITemplate = uritemplate.Template

// ParseURITemplate parses a resource template's URI template, as
// [Validate] checks it.
//
// Deprecated: a host matches resource templates itself; a mod needs no
// parser of its own. Kept for code written against it.
func ParseURITemplate(s string) (*URITemplate, error) {
	return uritemplate.Parse(s)
}

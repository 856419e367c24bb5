package manifest

import (
	"fmt"
	"mime"
	"net/url"
	"regexp"
	"strings"
)

// Resource is a document a mod offers at a fixed URI.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType,omitempty"`
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
	seen := map[string]bool{}
	optional := ""
	for i, a := range args {
		switch {
		case a.Name == "":
			out = append(out, fmt.Sprintf("arguments[%d]: name is empty", i))
			continue
		case !argumentName.MatchString(a.Name):
			out = append(out, fmt.Sprintf("argument %q: the name must be letters, digits, '_' or '-', starting with a letter", a.Name))
		}
		if seen[a.Name] {
			out = append(out, fmt.Sprintf("argument %q is declared twice", a.Name))
		}
		seen[a.Name] = true
		if a.Required && optional != "" {
			out = append(out, fmt.Sprintf("required argument %q follows optional argument %q: a person types them in order", a.Name, optional))
		}
		if !a.Required && optional == "" {
			optional = a.Name
		}
	}
	return out
}

// URITemplate is a parsed URI template of RFC 6570 level 1: literal text
// and {variables}.
type URITemplate struct {
	// Vars are the variables' names, in order.
	Vars []string
	re   *regexp.Regexp
}

// ParseURITemplate parses a resource template's URI template: it must have
// a scheme, at least one variable, variables named like Go identifiers,
// each once, and literal text between two variables.
func ParseURITemplate(s string) (*URITemplate, error) {
	if s == "" {
		return nil, fmt.Errorf("uriTemplate is empty")
	}
	if strings.ContainsAny(s, " \t\r\n") {
		return nil, fmt.Errorf("uriTemplate %q contains white space", s)
	}
	if !uriScheme.MatchString(s) {
		return nil, fmt.Errorf("uriTemplate %q has no scheme, like \"mymod://\"", s)
	}
	t := &URITemplate{}
	var re strings.Builder
	re.WriteString("^")
	rest := s
	lastWasVar := false
	for rest != "" {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			re.WriteString(regexp.QuoteMeta(rest))
			break
		}
		if rest[open] == '}' {
			return nil, fmt.Errorf("uriTemplate %q has a '}' with no '{'", s)
		}
		if open > 0 {
			re.WriteString(regexp.QuoteMeta(rest[:open]))
			lastWasVar = false
		}
		end := strings.IndexAny(rest[open+1:], "{}")
		if end < 0 || rest[open+1+end] == '{' {
			return nil, fmt.Errorf("uriTemplate %q has a '{' with no '}'", s)
		}
		name := rest[open+1 : open+1+end]
		switch {
		case name == "":
			return nil, fmt.Errorf("uriTemplate %q has an empty {}", s)
		case strings.ContainsAny(name[:1], "+#./;?&=,!@|"):
			return nil, fmt.Errorf("uriTemplate %q: {%s} uses an operator; only simple {name} variables are supported", s, name)
		case !varName.MatchString(name):
			return nil, fmt.Errorf("uriTemplate %q: variable {%s} must be a letter or '_', then letters, digits or '_'", s, name)
		case lastWasVar:
			return nil, fmt.Errorf("uriTemplate %q: variables {%s} and {%s} need literal text between them", s, t.Vars[len(t.Vars)-1], name)
		}
		for _, v := range t.Vars {
			if v == name {
				return nil, fmt.Errorf("uriTemplate %q: variable {%s} appears twice", s, name)
			}
		}
		t.Vars = append(t.Vars, name)
		re.WriteString("([^/]+)")
		lastWasVar = true
		rest = rest[open+1+end+1:]
	}
	if len(t.Vars) == 0 {
		return nil, fmt.Errorf("uriTemplate %q has no {variable}: declare it as a resource", s)
	}
	re.WriteString("$")
	t.re = regexp.MustCompile(re.String())
	return t, nil
}

// Match reports whether uri is one of the template's resources and returns
// its variables, percent-decoded.
func (t *URITemplate) Match(uri string) (map[string]string, bool) {
	m := t.re.FindStringSubmatch(uri)
	if m == nil {
		return nil, false
	}
	vars := make(map[string]string, len(t.Vars))
	for i, name := range t.Vars {
		v, err := url.PathUnescape(m[i+1])
		if err != nil {
			return nil, false
		}
		vars[name] = v
	}
	return vars, true
}

// validateFeatures checks the manifest's resources, resource templates and
// slash command arguments.
func (v *validator) validateFeatures(m *Manifest) {
	uris, names := map[string]int{}, map[string]string{}
	name := func(entry, n string) {
		if msg := CheckResourceName(n); msg != "" {
			v.add(entry, msg)
			return
		}
		if first, dup := names[n]; dup {
			v.add(entry, fmt.Sprintf("duplicate name, first at %s", first))
			return
		}
		names[n] = entry
	}
	for i, r := range m.Resources {
		entry := fmt.Sprintf("resources[%d] %q", i, r.URI)
		if msg := CheckResourceURI(r.URI); msg != "" {
			v.add(entry, msg)
		} else if j, dup := uris[r.URI]; dup {
			v.add(entry, fmt.Sprintf("duplicate uri, first at resources[%d]", j))
		} else {
			uris[r.URI] = i
		}
		name(entry, r.Name)
		if strings.TrimSpace(r.Description) == "" {
			v.add(entry, "description is empty")
		}
		if msg := CheckMIMEType(r.MIMEType); msg != "" {
			v.add(entry, msg)
		}
	}
	templates := map[string]int{}
	for i, t := range m.ResourceTemplates {
		entry := fmt.Sprintf("resourceTemplates[%d] %q", i, t.URITemplate)
		if _, err := ParseURITemplate(t.URITemplate); err != nil {
			v.add(entry, err.Error())
		} else if j, dup := templates[t.URITemplate]; dup {
			v.add(entry, fmt.Sprintf("duplicate uriTemplate, first at resourceTemplates[%d]", j))
		} else {
			templates[t.URITemplate] = i
		}
		name(entry, t.Name)
		if strings.TrimSpace(t.Description) == "" {
			v.add(entry, "description is empty")
		}
		if msg := CheckMIMEType(t.MIMEType); msg != "" {
			v.add(entry, msg)
		}
	}
	for i, s := range m.SlashCommands {
		entry := fmt.Sprintf("slashCommands[%d] %q", i, s.ID)
		for _, msg := range CheckArguments(s.Arguments) {
			v.add(entry, msg)
		}
	}
}

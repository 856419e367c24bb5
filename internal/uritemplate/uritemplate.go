package uritemplate

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Compiled on first use, not in every process that links the package (a
// mod's start).
var (
	varName   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
	uriScheme = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`) })
)

// Template is a parsed URI template of RFC 6570 level 1: literal text
// and {variables}.
type Template struct {
	// Vars are the variables' names, in order.
	Vars []string
	src  string
	re   *regexp.Regexp
}

// Parse parses a resource template's URI template: it must have
// a scheme, at least one variable, variables named like Go identifiers,
// each once, and literal text between two variables.
func Parse(s string) (*Template, error) {
	if s == "" {
		return nil, fmt.Errorf("uriTemplate is empty")
	}
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("uriTemplate %q is not valid UTF-8", s)
	}
	if strings.ContainsAny(s, " \t\r\n") {
		return nil, fmt.Errorf("uriTemplate %q contains white space", s)
	}
	if !uriScheme().MatchString(s) {
		return nil, fmt.Errorf("uriTemplate %q has no scheme, like \"mymod://\"", s)
	}
	t := &Template{src: s}
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
		case !varName().MatchString(name):
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
func (t *Template) Match(uri string) (map[string]string, bool) {
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

// Expand returns the URI of the template's resource whose variables are
// vars, each value percent-encoded as one path segment. It is an error to
// leave out a variable or give one the template does not have.
func (t *Template) Expand(vars map[string]string) (string, error) {
	for name := range vars {
		if !slices.Contains(t.Vars, name) {
			return "", fmt.Errorf("%s has no variable {%s}; it has {%s}", t.src, name, strings.Join(t.Vars, "}, {"))
		}
	}
	var uri strings.Builder
	rest := t.src
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			uri.WriteString(rest)
			return uri.String(), nil
		}
		end := open + strings.IndexByte(rest[open:], '}')
		name := rest[open+1 : end]
		v, ok := vars[name]
		if !ok {
			return "", fmt.Errorf("%s needs a value for {%s}", t.src, name)
		}
		uri.WriteString(rest[:open])
		uri.WriteString(url.PathEscape(v))
		rest = rest[end+1:]
	}
}

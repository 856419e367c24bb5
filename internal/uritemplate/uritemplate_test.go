package uritemplate

import (
	"maps"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tmpl, uri string
		want      map[string]string // nil: no match
	}{
		{"test://template/{id}/data", "test://template/123/data", map[string]string{"id": "123"}},
		{"test://template/{id}/data", "test://template/a%20b/data", map[string]string{"id": "a b"}},
		{"test://template/{id}/data", "test://template/1/2/data", nil},
		{"test://template/{id}/data", "test://template//data", nil},
		{"test://template/{id}/data", "test://template/1/datax", nil},
		{"notes://{dir}/{name}.md", "notes://a/b.md", map[string]string{"dir": "a", "name": "b"}},
		{"notes://{name}", "notes://x", map[string]string{"name": "x"}},
		{"notes://{name}", "other://x", nil},
		{"notes://{name}", "notes://%zz", nil},
	}
	for _, tt := range tests {
		tmpl, err := Parse(tt.tmpl)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.tmpl, err)
		}
		got, ok := tmpl.Match(tt.uri)
		if ok != (tt.want != nil) || !maps.Equal(got, tt.want) {
			t.Errorf("%q.Match(%q) = %v, %v; want %v", tt.tmpl, tt.uri, got, ok, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"":                 "uriTemplate is empty",
		"x/{a}":            "has no scheme",
		"x://{a":           "a '{' with no '}'",
		"x://a}":           "a '}' with no '{'",
		"x://{}":           "an empty {}",
		"x://{+a}":         "uses an operator",
		"x://{a-b}":        "must be a letter or '_'",
		"x://{a}{b}":       "need literal text between them",
		"x://{a}/{a}":      "appears twice",
		"x://fixed":        "has no {variable}",
		"x://{a} b":        "contains white space",
		"x://{a{b}}":       "a '{' with no '}'",
		"x://{a}/{b}/{c}?": "",
		"A:{a}\xaa":        "is not valid UTF-8",
	}
	for in, want := range tests {
		_, err := Parse(in)
		switch {
		case want == "" && err != nil:
			t.Errorf("Parse(%q): %v, want no error", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("Parse(%q): %v, want an error with %q", in, err, want)
		}
	}
}

// FuzzParse: a template Parse accepts names each of its variables once,
// in order, as "{name}" in its text; filled in with values made of a
// character its text lacks, it matches its own expansion and gives the
// values back; and a URI it matches starts and ends with its literal
// text, with a value for every variable.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"test://template/{id}/data", "x://{a}{b}", "x://{a", "notes://{d}/{n}.md", "x://{a}-{b}-z{c}", "x://{a}%41{b}"} {
		f.Add(s, "test://template/1/data")
	}
	f.Fuzz(func(t *testing.T, tmpl, uri string) {
		p, err := Parse(tmpl)
		if err != nil {
			return
		}
		if len(p.Vars) == 0 {
			t.Fatalf("Parse(%q): no variables, want an error", tmpl)
		}
		rest := tmpl
		for _, name := range p.Vars {
			var ok bool
			if _, rest, ok = strings.Cut(rest, "{"+name+"}"); !ok {
				t.Fatalf("Parse(%q): variable %q is not in the template in order", tmpl, name)
			}
		}
		// Values of a character absent from the template: nothing else in
		// the expansion can be read as a variable's.
		const unreserved = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"
		if i := strings.IndexFunc(unreserved, func(r rune) bool { return !strings.ContainsRune(tmpl, r) }); i >= 0 {
			want := map[string]string{}
			expanded := tmpl
			for n, name := range p.Vars {
				want[name] = strings.Repeat(unreserved[i:i+1], n+1)
				expanded = strings.Replace(expanded, "{"+name+"}", want[name], 1)
			}
			if got, ok := p.Match(expanded); !ok || !maps.Equal(got, want) {
				t.Fatalf("%q.Match(%q) = %v, %v; want %v", tmpl, expanded, got, ok, want)
			}
		}
		vars, ok := p.Match(uri)
		if !ok {
			return
		}
		prefix, _, _ := strings.Cut(tmpl, "{")
		suffix := tmpl[strings.LastIndexByte(tmpl, '}')+1:]
		if !strings.HasPrefix(uri, prefix) || !strings.HasSuffix(uri, suffix) || len(uri) < len(prefix)+len(suffix)+len(p.Vars) {
			t.Fatalf("%q.Match(%q) matched, but the URI does not start with %q and end with %q around its variables", tmpl, uri, prefix, suffix)
		}
		for _, name := range p.Vars {
			if v, ok := vars[name]; !ok || v == "" {
				t.Fatalf("%q.Match(%q) = %v: variable %q has no value", tmpl, uri, vars, name)
			}
		}
		if len(vars) != len(p.Vars) {
			t.Fatalf("%q.Match(%q) gave %d variables, want %d", tmpl, uri, len(vars), len(p.Vars))
		}
	})
}

func TestExpand(t *testing.T) {
	tmpl, err := Parse("notes://{dir}/{name}")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		vars    map[string]string
		want    string
		wantErr string
	}{
		{map[string]string{"dir": "a", "name": "b.md"}, "notes://a/b.md", ""},
		{map[string]string{"dir": "a b", "name": "../x"}, "notes://a%20b/..%2Fx", ""},
		{map[string]string{"dir": "a"}, "", "notes://{dir}/{name} needs a value for {name}"},
		{map[string]string{"dir": "a", "name": "b", "id": "c"}, "", "notes://{dir}/{name} has no variable {id}; it has {dir}, {name}"},
	}
	for _, tt := range tests {
		got, err := tmpl.Expand(tt.vars)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Expand(%v): got error %v, want %q", tt.vars, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Expand(%v): got %q, %v; want %q", tt.vars, got, err, tt.want)
			continue
		}
		// What Expand makes, Match reads back.
		if vars, ok := tmpl.Match(got); !ok || vars["dir"] != tt.vars["dir"] || vars["name"] != tt.vars["name"] {
			t.Errorf("Match(%q): got %v, %v; want %v", got, vars, ok, tt.vars)
		}
	}
}

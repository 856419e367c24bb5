package manifest

import (
	"maps"
	"strings"
	"testing"
)

func TestURITemplateMatch(t *testing.T) {
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
		tmpl, err := ParseURITemplate(tt.tmpl)
		if err != nil {
			t.Fatalf("ParseURITemplate(%q): %v", tt.tmpl, err)
		}
		got, ok := tmpl.Match(tt.uri)
		if ok != (tt.want != nil) || !maps.Equal(got, tt.want) {
			t.Errorf("%q.Match(%q) = %v, %v; want %v", tt.tmpl, tt.uri, got, ok, tt.want)
		}
	}
}

func TestParseURITemplateErrors(t *testing.T) {
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
	}
	for in, want := range tests {
		_, err := ParseURITemplate(in)
		switch {
		case want == "" && err != nil:
			t.Errorf("ParseURITemplate(%q): %v, want no error", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("ParseURITemplate(%q): %v, want an error with %q", in, err, want)
		}
	}
}

func FuzzParseURITemplate(f *testing.F) {
	for _, s := range []string{"test://template/{id}/data", "x://{a}{b}", "x://{a", "notes://{d}/{n}.md"} {
		f.Add(s, "test://template/1/data")
	}
	f.Fuzz(func(t *testing.T, tmpl, uri string) {
		p, err := ParseURITemplate(tmpl)
		if err != nil {
			return
		}
		vars, ok := p.Match(uri)
		if ok && len(vars) != len(p.Vars) {
			t.Fatalf("%q.Match(%q) gave %d variables, want %d", tmpl, uri, len(vars), len(p.Vars))
		}
	})
}

func TestValidateFeatures(t *testing.T) {
	m := &Manifest{
		FormatVersion: FormatVersion, ID: "m", GoPackage: "x", SourceHash: "sha256:" + strings.Repeat("0", 64), Tools: []Tool{},
		Resources: []Resource{
			{URI: "m://a", Name: "a", Description: "A."},
			{URI: "m://a", Name: "a", Description: ""},
			{URI: "m://{x}", Name: "b", Description: "B.", MIMEType: "nope"},
		},
		ResourceTemplates: []ResourceTemplate{{URITemplate: "m://{x}{y}", Name: "t", Description: "T."}},
		SlashCommands: []SlashCommand{{ID: "s", Description: "S.", Arguments: []Argument{
			{Name: "opt"}, {Name: "req", Required: true}, {Name: "opt"},
		}}},
	}
	err := Validate(m)
	if err == nil {
		t.Fatal("got no error")
	}
	want := []string{
		`resources[1] "m://a": duplicate uri, first at resources[0]`,
		`resources[1] "m://a": duplicate name, first at resources[0] "m://a"`,
		`resources[1] "m://a": description is empty`,
		`resources[2] "m://{x}": uri "m://{x}" has a {variable}: declare it as a resource template`,
		`resources[2] "m://{x}": mimeType "nope" is not a MIME type like "text/plain"`,
		`resourceTemplates[0] "m://{x}{y}": uriTemplate "m://{x}{y}": variables {x} and {y} need literal text between them`,
		`slashCommands[0] "s": required argument "req" follows optional argument "opt": a person types them in order`,
		`slashCommands[0] "s": argument "opt" is declared twice`,
	}
	var got []string
	for _, p := range err.(*Error).Problems {
		got = append(got, p.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

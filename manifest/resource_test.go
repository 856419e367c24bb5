package manifest

import (
	"strings"
	"testing"
)

func TestValidateFeatures(t *testing.T) {
	t.Parallel()
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

package schemaview

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func schemaFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../modgen/schematest/testdata/" + name + ".schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFieldsInJSONTerms: nested fields of optional structs, arrays and
// maps are shown, with types in JSON terms.
func TestFieldsInJSONTerms(t *testing.T) {
	t.Parallel()
	fs, typ := fields(schemaFile(t, "Everything"))
	if typ != "object" {
		t.Errorf("got root type %q, want object", typ)
	}
	got := map[string]string{}
	for _, f := range fs {
		got[f.Path] = f.Type
	}
	want := map[string]string{
		"/nested":             "object",
		"/nested/inner":       "string",
		"/when":               "string (date-time)",
		"/anything":           "any JSON value",
		"/color":              `one of "red", "green", "blue"`,
		"/maybeColor":         `one of "red", "green", "blue" or null`,
		"/counts":             "object of integer",
		"/pair":               "array of integer",
		"/items":              "array of object",
		"/items/*/title":      "string",
		"/maybeItem":          "object or null",
		"/maybeItem/title":    "string",
		"/maybeItem/level":    "one of 1, 2, 3",
		"/page/items/*/title": "string",
		"/ptr":                "integer or null",
	}
	for path, w := range want {
		if got[path] != w {
			t.Errorf("%s: got type %q, want %q", path, got[path], w)
		}
	}
	for _, f := range fs {
		if f.Path == "/when" && len(f.Rules) > 0 {
			t.Errorf("when: got rules %q, want none: the format says what a date-time is", f.Rules)
		}
		if strings.ContainsAny(f.Type, "[]|") || strings.Contains(f.Type, "map") {
			t.Errorf("%s: type %q is in Go notation", f.Path, f.Type)
		}
	}
}

// TestFieldsRecursiveRoot: a recursive root is shown once.
func TestFieldsRecursiveRoot(t *testing.T) {
	t.Parallel()
	fs, typ := fields(schemaFile(t, "Node"))
	var paths []string
	for _, f := range fs {
		paths = append(paths, f.Path)
	}
	if want := "/name /children /parent"; typ != "object" || strings.Join(paths, " ") != want {
		t.Errorf("got %q, type %s; want %q, type object", paths, typ, want)
	}
}

// TestOfNotation: paths escape names as JSON Pointer tokens and mark any
// element or key; a schema that is not JSON has no fields.
func TestOfNotation(t *testing.T) {
	t.Parallel()
	v := Of([]byte(`{"type":"object","properties":{
		"a/b":{"type":"string"},
		"m":{"type":"object","additionalProperties":{"type":"object","properties":{"x":{"type":"integer"}}}},
		"l":{"type":"array","items":{"type":"object","properties":{"y":{"type":"boolean"}},"required":["y"]}}
	},"required":["a/b"]}`))
	var got []string
	for _, f := range v.Fields {
		got = append(got, fmt.Sprintf("%s %s %s", f.Path, f.Type, f.RequiredWord()))
	}
	want := []string{
		"/a~1b string required",
		"/m object of object optional",
		"/m/{key}/x integer optional",
		"/l array of object optional",
		"/l/*/y boolean required",
	}
	if v.Type != "object" || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got type %s, rows\n%s\nwant object, rows\n%s", v.Type, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v := Of([]byte("nope")); v.Type != "invalid schema" || v.Fields == nil || len(v.Fields) != 0 {
		t.Errorf("got %+v, want an invalid schema with an empty list of fields", v)
	}
}

// TestSixtyFourBitRangeHidden: a 64-bit integer's own range, which the
// schema states as bounds, is not shown; narrower bounds are.
func TestSixtyFourBitRangeHidden(t *testing.T) {
	t.Parallel()
	fs, _ := fields(schemaFile(t, "Sizes"))
	want := map[string]string{"/i64": "", "/u64": "minimum=0", "/u": "minimum=0", "/u8": "minimum=0 maximum=255"}
	for _, f := range fs {
		if w, ok := want[f.Path]; ok {
			if got := strings.Join(f.Rules, " "); got != w {
				t.Errorf("%s: got rules %q, want %q", f.Path, got, w)
			}
			delete(want, f.Path)
		}
	}
	if len(want) > 0 {
		t.Errorf("fields not shown: %v", want)
	}
}

package main

import (
	"os"
	"strings"
	"testing"
)

func schemaFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../../internal/modgen/schematest/testdata/" + name + ".schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFieldsInJSONTerms: nested fields of optional structs, arrays and
// maps are shown, with types in JSON terms.
func TestFieldsInJSONTerms(t *testing.T) {
	fs, typ := fields(schemaFile(t, "Everything"))
	if typ != "object" {
		t.Errorf("got root type %q, want object", typ)
	}
	got := map[string]string{}
	for _, f := range fs {
		got[f.Path] = f.Type
	}
	want := map[string]string{
		"nested":             "object",
		"nested.inner":       "string",
		"when":               "string (date-time)",
		"anything":           "any JSON value",
		"color":              `one of "red", "green", "blue"`,
		"maybeColor":         `one of "red", "green", "blue" or null`,
		"counts":             "object of integer",
		"pair":               "array of integer",
		"items":              "array of object",
		"items[].title":      "string",
		"maybeItem":          "object or null",
		"maybeItem.title":    "string",
		"maybeItem.level":    "one of 1, 2, 3",
		"page.items[].title": "string",
		"ptr":                "integer or null",
	}
	for path, w := range want {
		if got[path] != w {
			t.Errorf("%s: got type %q, want %q", path, got[path], w)
		}
	}
	for _, f := range fs {
		if f.Path == "when" && len(f.Rules) > 0 {
			t.Errorf("when: got rules %q, want none: the format says what a date-time is", f.Rules)
		}
		if strings.ContainsAny(f.Type, "[]|") || strings.Contains(f.Type, "map") {
			t.Errorf("%s: type %q is in Go notation", f.Path, f.Type)
		}
	}
}

// TestFieldsRecursiveRoot: a recursive root is shown once.
func TestFieldsRecursiveRoot(t *testing.T) {
	fs, typ := fields(schemaFile(t, "Node"))
	var paths []string
	for _, f := range fs {
		paths = append(paths, f.Path)
	}
	if want := "name children parent"; typ != "object" || strings.Join(paths, " ") != want {
		t.Errorf("got %q, type %s; want %q, type object", paths, typ, want)
	}
}

package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSchemaAcceptsCompiles(t *testing.T) {
	t.Parallel()
	if acceptNode() == nil {
		_, err := compileAccept(schemaJSON)
		t.Fatalf("the embedded schema does not compile for schemaAccepts, so every manifest goes to the validator: %v", err)
	}
}

func TestCompileAcceptRefusesUnknownKeywords(t *testing.T) {
	t.Parallel()
	for _, schema := range []string{
		`{"type":"integer"}`,
		`{"type":"object","additionalProperties":{"type":"string"}}`,
		`{"type":"string","maxLength":3}`,
		`{"properties":{"a":{"type":"string"}}}`,
		`{"type":"string","items":{"type":"string"}}`,
		`{"$ref":"#/$defs/missing"}`,
		`{"$ref":"other.json"}`,
		`{"enum":[1,2]}`,
		`{"oneOf":[{"type":"string"}]}`,
	} {
		if _, err := compileAccept([]byte(schema)); err == nil {
			t.Errorf("compileAccept(%s): got no error, want one", schema)
		}
	}
}

// TestSchemaAcceptsAgreesOnSamples runs the differential check of
// FuzzSchemaAccepts over every sample manifest and the rejection cases.
func TestSchemaAcceptsAgreesOnSamples(t *testing.T) {
	t.Parallel()
	for _, data := range schemaSamples(t) {
		checkSchemaAgreement(t, data, true)
	}
}

// FuzzSchemaAccepts checks that schemaAccepts answers as the JSON Schema
// validator does: Decode skips the validator for what schemaAccepts
// accepts, so it must never accept what the validator refuses.
func FuzzSchemaAccepts(f *testing.F) {
	for _, data := range schemaSamples(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSchemaAgreement(t, data, false)
	})
}

// checkSchemaAgreement compares the validator, schemaAccepts and
// schemaAcceptsJSON on data; exact: data repeats no key.
func checkSchemaAgreement(t *testing.T, data []byte, exact bool) {
	t.Helper()
	doc, ok := decodeDoc(data)
	if !ok {
		return
	}
	fast := schemaAccepts(doc)
	problems := schemaProblems(doc)
	// schemaAcceptsJSON checks every value of a repeated key, so it may
	// refuse more, only where a key repeats.
	if walked := schemaAcceptsJSON(data); walked && !fast || exact && walked != fast {
		t.Fatalf("schemaAcceptsJSON(%s) = %v, schemaAccepts of its document %v", data, walked, fast)
	}
	if fast && len(problems) > 0 {
		t.Fatalf("schemaAccepts took %s, which the validator refuses: %v", data, problems)
	}
	if !fast && len(problems) == 0 {
		t.Fatalf("schemaAccepts refused %s, which the validator accepts", data)
	}
}

// schemaSamples are manifests valid and not, each also with one field
// changed in ways the schema refuses.
func schemaSamples(tb testing.TB) [][]byte {
	tb.Helper()
	good, err := Encode(sample())
	if err != nil {
		tb.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "research.golden.json"))
	if err != nil {
		tb.Fatal(err)
	}
	out := [][]byte{good, golden, []byte(`{}`), []byte(`[]`), []byte(`null`)}
	for _, base := range [][]byte{good, golden} {
		var doc map[string]any
		if err := json.Unmarshal(base, &doc); err != nil {
			tb.Fatal(err)
		}
		for _, edit := range []func(map[string]any){
			func(d map[string]any) { delete(d, "tools") },
			func(d map[string]any) { d["id"] = "Bad" },
			func(d map[string]any) { d["id"] = nil },
			func(d map[string]any) { d["ID"] = "x" },
			func(d map[string]any) { d["sourceHash"] = "sha256:00" },
			func(d map[string]any) { d["goPackage"] = "" },
			func(d map[string]any) { d["formatVersion"] = 1 },
			func(d map[string]any) { d["permissions"] = map[string]any{"env": []any{"1X"}} },
			func(d map[string]any) { d["permissions"] = map[string]any{"writeWorkspace": "yes"} },
			func(d map[string]any) { tool(d)["kind"] = "other" },
			func(d map[string]any) { tool(d)["runs"] = 1 },
			func(d map[string]any) { tool(d)["inputSchema"] = []any{} },
			func(d map[string]any) { tool(d)["inputSchema"] = map[string]any{"type": 3} },
			func(d map[string]any) { tool(d)["description"] = "" },
			func(d map[string]any) { tool(d)["extra"] = true },
			func(d map[string]any) { delete(tool(d), "name") },
			func(d map[string]any) { tool(d)["annotations"] = map[string]any{"readOnly": true} },
			func(d map[string]any) { tool(d)["approval"] = map[string]any{"when": "always", "reason": ""} },
			func(d map[string]any) { d["tools"] = []any{"x"} },
			func(d map[string]any) { d["agents"] = []any{map[string]any{"name": "a", "tools": []any{""}}} },
			func(d map[string]any) { d["hooks"] = []any{map[string]any{"beforeAction": strings.Repeat("é", 2)}} },
		} {
			c := map[string]any{}
			if err := json.Unmarshal(base, &c); err != nil {
				tb.Fatal(err)
			}
			edit(c)
			var buf bytes.Buffer
			if err := json.NewEncoder(&buf).Encode(c); err != nil {
				tb.Fatal(err)
			}
			out = append(out, buf.Bytes())
		}
	}
	return out
}

// tool returns d's first tool, adding one when it has none.
func tool(d map[string]any) map[string]any {
	tools, _ := d["tools"].([]any)
	if len(tools) == 0 {
		t := map[string]any{}
		d["tools"] = []any{t}
		return t
	}
	t, _ := tools[0].(map[string]any)
	return t
}

// FuzzSchemaAcceptsJSON checks that schemaAcceptsJSON accepts only what
// decodeDoc decodes and the validator accepts.
func FuzzSchemaAcceptsJSON(f *testing.F) {
	for _, data := range schemaSamples(f) {
		f.Add(data)
	}
	f.Add([]byte(`{"id":"a","id":1}`))
	f.Add([]byte(`{"i\u0064":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !schemaAcceptsJSON(data) {
			return
		}
		doc, ok := decodeDoc(data)
		if !ok {
			t.Fatalf("schemaAcceptsJSON took %q, which decodeDoc refuses", data)
		}
		if problems := schemaProblems(doc); len(problems) > 0 {
			t.Fatalf("schemaAcceptsJSON took %s, which the validator refuses: %v", data, problems)
		}
	})
}

// TestSchemaFieldsAreGoFields checks that every property the schema allows
// is a field of Manifest's types, by its exact JSON name, with a kind the
// property's type decodes to: Decode's typed decode of a manifest the
// schema accepts then finds no unknown field and needs no
// DisallowUnknownFields.
func TestSchemaFieldsAreGoFields(t *testing.T) {
	t.Parallel()
	root := acceptNode()
	if root == nil {
		t.Fatal("the embedded schema does not compile for schemaAccepts")
	}
	checkSchemaType(t, "manifest", root, reflect.TypeFor[Manifest]())
}

func checkSchemaType(t *testing.T, at string, n *schemaNode, typ reflect.Type) {
	t.Helper()
	for n.ref != nil && n.typ == "" && n.enum == nil {
		n = *n.ref
	}
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	rawJSON := reflect.TypeFor[json.RawMessage]()
	switch {
	case n.typ == "object" && typ == rawJSON:
		if n.properties != nil || n.closed {
			t.Errorf("%s: a json.RawMessage, but the schema looks inside it", at)
		}
	case n.typ == "object":
		if typ.Kind() != reflect.Struct {
			t.Errorf("%s: got Go %s, want a struct", at, typ)
			return
		}
		if !n.closed {
			t.Errorf("%s: the schema allows properties Go does not have", at)
		}
		fields := map[string]reflect.Type{}
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != "" && name != "-" && f.IsExported() {
				fields[name] = f.Type
			}
		}
		for name, p := range n.properties {
			ft, ok := fields[name]
			if !ok {
				t.Errorf("%s: schema property %q is no field of %s", at, name, typ)
				continue
			}
			checkSchemaType(t, at+"."+name, p, ft)
		}
	case n.typ == "array":
		if typ.Kind() != reflect.Slice || typ == rawJSON {
			t.Errorf("%s: got Go %s, want a slice", at, typ)
			return
		}
		if n.items != nil {
			checkSchemaType(t, at+"[]", n.items, typ.Elem())
		}
	case n.typ == "string" || n.enum != nil:
		if typ.Kind() != reflect.String {
			t.Errorf("%s: got Go %s, want a string", at, typ)
		}
	case n.typ == "boolean":
		if typ.Kind() != reflect.Bool {
			t.Errorf("%s: got Go %s, want a bool", at, typ)
		}
	default:
		t.Errorf("%s: schema of no type for Go %s", at, typ)
	}
}

// FuzzDecodeShortcut checks that Decode, which skips the validator for
// what schemaAcceptsJSON accepts, answers as the long way does: the same
// manifest, or the same error.
func FuzzDecodeShortcut(f *testing.F) {
	for _, data := range schemaSamples(f) {
		f.Add(data)
	}
	f.Add([]byte(`{"formatVersion":"9.0","id":"a","goPackage":"p","sourceHash":"sha256:0000000000000000000000000000000000000000000000000000000000000000","tools":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !schemaAcceptsJSON(data) {
			return // Decode takes the long way itself
		}
		got, gotErr := Decode(data)
		want, wantErr := decodeChecked(data)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("Decode(%s): got error %v, the long way %v", data, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode(%s): got %+v, the long way %+v", data, got, want)
		}
	})
}

// BenchmarkDecode decodes the research mod's manifest the short way, which
// a manifest the schema accepts takes, and the long way, with the
// validator.
func BenchmarkDecode(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "research.golden.json"))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		decode func([]byte) (*Manifest, error)
	}{{"short", Decode}, {"long", decodeChecked}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// A mod of list100's fleet: five tools shaped like research's first.
	golden, err := Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	m := &Manifest{FormatVersion: FormatVersion, ID: "fleet001", GoPackage: "example.com/fleet/fleet001",
		SourceHash: "sha256:" + strings.Repeat("0", 64)}
	for j := range 5 {
		t := golden.Tools[0]
		t.Name = fmt.Sprintf("fleet001_tool%d", j)
		m.Tools = append(m.Tools, t)
	}
	fleet, err := Encode(m)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fleet", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(fleet); err != nil {
				b.Fatal(err)
			}
		}
	})
}

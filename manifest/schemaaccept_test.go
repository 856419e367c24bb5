package manifest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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
		checkSchemaAgreement(t, data)
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
		checkSchemaAgreement(t, data)
	})
}

func checkSchemaAgreement(t *testing.T, data []byte) {
	t.Helper()
	doc, ok := decodeDoc(data)
	if !ok {
		return
	}
	fast := schemaAccepts(doc)
	problems := schemaProblems(doc)
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

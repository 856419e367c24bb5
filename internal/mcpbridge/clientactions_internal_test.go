package mcpbridge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
)

// TestActionsOutputSchema checks that the output schema of a rendered tool
// with two kinds of action, all three with a definition named "Item" of
// their own, accepts what the bridge sends and refuses what breaks a kind's
// params.
func TestActionsOutputSchema(t *testing.T) {
	t.Parallel()
	item := func(prop, typ string) string {
		return `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
			"properties":{"item":{"$ref":"#/$defs/Item"}},"required":["item"],"additionalProperties":false,
			"$defs":{"Item":{"type":"object","properties":{"` + prop + `":{"type":"` + typ + `"}},"required":["` + prop + `"],"additionalProperties":false}}}`
	}
	tool := host.Tool{Mod: "m", Tool: manifest.Tool{Name: "t", Kind: manifest.KindRendered, ResultSchema: json.RawMessage(item("words", "integer")),
		ClientActions: []string{"open", "mark"}},
		ClientActionKinds: []manifest.ClientActionKind{
			{Kind: "open", Description: "Opens.", ParamsSchema: json.RawMessage(item("path", "string"))},
			{Kind: "mark", Description: "Marks.", ParamsSchema: json.RawMessage(item("line", "integer"))},
		}}
	raw, err := actionsOutputSchema(tool)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("mem://out.json", bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://out.json")
	if err != nil {
		t.Fatalf("compile %s: %v", raw, err)
	}
	tests := []struct {
		doc string
		ok  bool
	}{
		{`{"result":{"item":{"words":2}},"clientActions":[{"kind":"open","params":{"item":{"path":"a"}}},{"kind":"mark","params":{"item":{"line":3}}}]}`, true},
		{`{"result":{"item":{"words":2}},"clientActions":[]}`, true},
		{`{"result":{"item":{"words":2}},"clientActions":[{"kind":"open","params":{"item":{"line":3}}}]}`, false},
		{`{"result":{"item":{"words":2}},"clientActions":[{"kind":"close","params":{}}]}`, false},
		{`{"result":{"item":{"path":"a"}},"clientActions":[]}`, false},
		{`{"clientActions":[]}`, false},
	}
	for _, tt := range tests {
		var doc any
		if err := json.Unmarshal([]byte(tt.doc), &doc); err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(doc); (err == nil) != tt.ok {
			t.Errorf("%s: got error %v, want ok %v", tt.doc, err, tt.ok)
		}
	}
}

package mcpbridge_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
)

// TestOutputSchemaOneType lists the example mods' tools and checks that
// every "type" in their output schemas is one type, not an array such as
// ["array","null"], which the MCP Inspector's --strict mode warns about:
// nil slices and maps encode as [] and {}.
func TestOutputSchemaOneType(t *testing.T) {
	t.Parallel()
	examples := filepath.Join("..", "..", "examples")
	cs := connect(t, loadHost(t, filepath.Join(examples, "research"), filepath.Join(examples, "dependencies")), nil, nil)
	res, err := cs.ListTools(callCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	withOutput := 0
	for _, tool := range res.Tools {
		if tool.OutputSchema == nil {
			continue
		}
		withOutput++
		data, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema any
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatal(err)
		}
		for _, p := range arrayTypes(schema, "") {
			t.Errorf("%s: outputSchema%s: type is an array", tool.Name, p)
		}
	}
	if withOutput < 3 {
		t.Errorf("got %d tools with an output schema, want at least 3", withOutput)
	}
}

// arrayTypes returns the JSON pointers under which a schema's "type" is an
// array.
func arrayTypes(v any, at string) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if _, ok := x.([]any); ok && k == "type" {
				out = append(out, at)
			}
			out = append(out, arrayTypes(x, at+"/"+k)...)
		}
	case []any:
		for i, x := range v {
			out = append(out, arrayTypes(x, fmt.Sprintf("%s/%d", at, i))...)
		}
	}
	return out
}

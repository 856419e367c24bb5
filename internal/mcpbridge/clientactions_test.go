package mcpbridge_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// TestClientActions lists and calls crashy_act, whose client actions go in
// the structured content, beside no result, and in _meta.
func TestClientActions(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	cs := connect(t, h, nil, nil)
	list, err := cs.ListTools(callCtx(t), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var schema string
	for _, tool := range list.Tools {
		if tool.Name == "crashy_act" {
			schema = mustJSON(t, tool.OutputSchema)
		}
	}
	for _, want := range []string{`"clientActions":{`, `"kind":{"const":"mark"}`, `"line":{`, `"required":["clientActions"]`} {
		if !strings.Contains(schema, want) {
			t.Errorf("output schema %s: want it to contain %s", schema, want)
		}
	}

	res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_act", Arguments: json.RawMessage(
		`{"acted":[{"kind":"mark","params":{"line":2}}],"returned":[{"kind":"mark","params":{"line":1,"weight":0.5}}]}`)})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	actions := `[{"kind":"mark","params":{"line":2}},{"kind":"mark","params":{"line":1,"weight":0.5}}]`
	if res.IsError {
		t.Fatalf("got error %s, want a result", mustJSON(t, res.Content))
	}
	if want := `{"clientActions":` + actions + `}`; !sameJSON(t, res.StructuredContent, json.RawMessage(want)) {
		t.Errorf("structuredContent: got %s, want %s", mustJSON(t, res.StructuredContent), want)
	}
	if got := mustJSON(t, res.Meta[mcpbridge.MetaClientActions]); !sameJSON(t, json.RawMessage(got), json.RawMessage(actions)) {
		t.Errorf("_meta[%s]: got %s, want %s", mcpbridge.MetaClientActions, got, actions)
	}

	res, err = cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_act", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if want := `{"clientActions":[]}`; !sameJSON(t, res.StructuredContent, json.RawMessage(want)) {
		t.Errorf("no actions: structuredContent: got %s, want %s", mustJSON(t, res.StructuredContent), want)
	}

	res, err = cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_act", Arguments: json.RawMessage(
		`{"returned":[{"kind":"highlight_panel","params":{"panel":"diary"}}]}`)})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	want := `Tool failed: tool crashy_act returned client action 0 ("highlight_panel"): the tool declares no such kind (it declares "mark")`
	if !res.IsError || res.Content[0].(*mcp.TextContent).Text != want {
		t.Errorf("undeclared kind: got isError %v, %s, want %q", res.IsError, mustJSON(t, res.Content), want)
	}
	if _, ok := res.Meta[mcpbridge.MetaClientActions]; ok || res.StructuredContent != nil {
		t.Errorf("undeclared kind: got structuredContent %s and _meta %s, want neither", mustJSON(t, res.StructuredContent), mustJSON(t, res.Meta))
	}
}

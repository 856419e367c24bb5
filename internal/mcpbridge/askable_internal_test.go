package mcpbridge

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAskableOf: what the bridge reads in place from a request's _meta is
// what go-sdk decodes from it.
func TestAskableOf(t *testing.T) {
	t.Parallel()
	for _, caps := range []string{
		`{}`, `{"elicitation":{}}`, `{"elicitation":{"form":{}}}`, `{"elicitation":{"url":{}}}`,
		`{"elicitation":{"form":{},"url":{}}}`, `{"elicitation":null,"sampling":null,"roots":null}`,
		`{"sampling":{}}`, `{"roots":{"listChanged":true}}`, `{"sampling":{"tools":{}},"roots":{},"elicitation":{"form":{"applyDefaults":true}}}`,
	} {
		var meta map[string]any
		if err := json.Unmarshal([]byte(`{"`+mcp.MetaKeyProtocolVersion+`":"2026-07-28","`+mcp.MetaKeyClientCapabilities+`":`+caps+`}`), &meta); err != nil {
			t.Fatal(err)
		}
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: meta}}
		got, want := askableOf(req), askableFrom(req.ClientCapabilities())
		if got != want {
			t.Errorf("%s: got %+v, want %+v (go-sdk's reading)", caps, got, want)
		}
	}
}

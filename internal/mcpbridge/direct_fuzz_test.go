package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpwire"
)

// FuzzServeDirect checks that the direct path either leaves a posted body
// to the SDK, writing nothing, or calls the named tool with the body's
// arguments and answers with one JSON-RPC response to the body's id.
func FuzzServeDirect(f *testing.F) {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1},` + meta + `}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"t",` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{},` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":[],` + meta + `}}`,
		`{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"t"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":5}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":5}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var got *mcp.CallToolParamsRaw
		calls := &directCalls{impl: &mcp.Implementation{Name: "m", Version: "1"}, handlers: map[string]mcp.ToolHandler{
			"t": func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				got = req.Params
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			},
		}}
		req := httptest.NewRequest("POST", "/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "t")
		w := httptest.NewRecorder()
		m, code, _ := checkBody(body)
		if code != 0 || !calls.serveDirect(w, req, req.Context(), &m) {
			if w.Body.Len() > 0 || got != nil {
				t.Fatalf("%q: declined, yet wrote %q or called the tool", body, w.Body.Bytes())
			}
			return
		}
		if got == nil || got.Name != "t" || got.Meta[mcp.MetaKeyProtocolVersion] != "2026-07-28" {
			t.Fatalf("%q: served, with the tool called with %+v", body, got)
		}
		if len(got.Arguments) > 0 && !json.Valid(got.Arguments) {
			t.Fatalf("%q: arguments %q are not JSON", body, got.Arguments)
		}
		var resp struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  struct {
				ResultType string `json:"resultType"`
			} `json:"result"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || w.Code != http.StatusOK || resp.JSONRPC != "2.0" || resp.Result.ResultType != "complete" {
			t.Fatalf("%q: answered %d %q (%v)", body, w.Code, w.Body.Bytes(), err)
		}
		var msg struct{ ID json.RawMessage }
		json.Unmarshal(body, &msg)
		if mcpwire.IDKey(resp.ID) != mcpwire.IDKey(msg.ID) {
			t.Fatalf("%q: answered id %s, want %s", body, resp.ID, msg.ID)
		}
	})
}

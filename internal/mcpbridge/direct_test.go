package mcpbridge_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// post sends a stateless tools/call of tool with arguments args and the
// extra _meta keys extra, and returns the HTTP status, the response's
// Content-Type and its JSON-RPC message (an event stream's one message).
func post(t *testing.T, url, tool, args, caps, extra string) (int, string, map[string]any) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
		`,"_meta":{` + extra + `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps +
		`,"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}}}`
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if i := bytes.Index(data, []byte("data: ")); i >= 0 {
		data, _, _ = bytes.Cut(data[i+len("data: "):], []byte("\n"))
	}
	var msg map[string]any
	if err := json.Unmarshal(data, &msg); err != nil {
		t.Fatalf("%s: %v: %s", tool, err, data)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), msg
}

// TestDirectCall: a plain stateless tools/call, which the HTTP handler
// serves itself, is answered as the SDK's handler answers it (the same
// call with a _meta key the direct path leaves to the SDK).
func TestDirectCall(t *testing.T) {
	t.Parallel()
	srv, err := mcpbridge.NewServer(loadHost(t, conformanceDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(mcpbridge.HTTPPath, srv.NewHTTPHandler(nil))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	url := ts.URL + mcpbridge.HTTPPath
	for _, tt := range []struct{ tool, args, caps string }{
		{"test_simple_text", `{}`, `{}`},
		{"test_image_content", `{}`, `{}`},
		{"test_multiple_content_types", `{}`, `{}`},
		{"test_error_handling", `{}`, `{}`},
		{"json_schema_2020_12_tool", `{"name":"Ada","contactMethod":"phone"}`, `{}`},
		{"json_schema_2020_12_tool", `{"name":"Ada","phone":"1","email":"a@b"}`, `{}`},
		{"test_input_required_result_elicitation", `{}`, `{"elicitation":{"form":{}}}`},
		{"test_missing_capability", `{}`, `{"elicitation":{}}`},
		{"no_such_tool", `{}`, `{}`},
	} {
		status, ctype, direct := post(t, url, tt.tool, tt.args, tt.caps, "")
		sdkStatus, _, sdk := post(t, url, tt.tool, tt.args, tt.caps, `"example.com/unknown":1,`)
		for _, m := range []map[string]any{direct, sdk} {
			if r, ok := m["result"].(map[string]any); ok {
				if _, ok := r["requestState"]; ok {
					r["requestState"] = "sealed" // fresh each time
				}
			}
		}
		if status != sdkStatus || !reflect.DeepEqual(direct, sdk) {
			t.Errorf("%s %s:\ndirect: %d %v\nSDK:    %d %v", tt.tool, tt.args, status, direct, sdkStatus, sdk)
		}
		if _, ok := direct["result"]; ok && ctype != "application/json" {
			t.Errorf("%s: Content-Type %q: want the direct path's application/json", tt.tool, ctype)
		}
	}
}

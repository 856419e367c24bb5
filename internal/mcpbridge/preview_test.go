package mcpbridge_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/sdk"
)

// TestListedTool: ListedTool gives each tool the entry a client lists, and
// ErrNotOffered for a tool only a client runs.
func TestListedTool(t *testing.T) {
	t.Parallel()
	clientside := filepath.Join("..", "..", "host", "testdata", "mods", "clientside")
	h := loadHost(t, crashyDir, clientside)
	res, err := connectClient(t, h, nil, uiClient()).ListTools(callCtx(t), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	listed := map[string]*mcp.Tool{}
	for _, lt := range res.Tools {
		listed[lt.Name] = lt
	}
	tools, err := h.Tools("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		got, err := mcpbridge.ListedTool(tool)
		want, ok := listed[tool.Name]
		switch {
		case !ok && !errors.Is(err, mcpbridge.ErrNotOffered):
			t.Errorf("%s: not listed, but ListedTool gave %v, %v", tool.Name, mustJSON(t, got), err)
		case ok && err != nil:
			t.Errorf("%s: ListedTool: %v", tool.Name, err)
		case ok && !sameJSON(t, got, want):
			t.Errorf("%s: ListedTool gave %s, a client lists %s", tool.Name, mustJSON(t, got), mustJSON(t, want))
		}
	}
}

var callIDs = regexp.MustCompile(`call_[0-9a-f]+`)

// TestCallToolResult: CallToolResult gives the result a client receives,
// but for the envelope the SDK adds and the host's call ids.
func TestCallToolResult(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	cs := connectClient(t, h, nil, nil)
	tools, err := h.Tools("")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]host.Tool{}
	for _, tool := range tools {
		byName[tool.Name] = tool
	}
	for _, tt := range []struct{ tool, input string }{
		{"crashy_echo", `{"text":"hi","times":2}`},
		{"crashy_act", `{"returned":[{"kind":"mark","params":{"line":4}}]}`},
		{"crashy_fail", `{}`},
		{"crashy_report", `{"title":"t"}`},
	} {
		want, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: tt.tool, Arguments: json.RawMessage(tt.input)})
		if err != nil {
			t.Fatalf("%s: CallTool: %v", tt.tool, err)
		}
		res, err := h.Call(callCtx(t), &host.CallRequest{Tool: tt.tool, Input: json.RawMessage(tt.input), Session: sdk.Session{ID: "mcp"}})
		got := callIDs.ReplaceAllString(mustJSON(t, mcpbridge.CallToolResult(byName[tt.tool], res, err)), "call_ID")
		// The SDK adds the protocol's envelope as it sends a result.
		delete(want.Meta, "io.modelcontextprotocol/serverInfo")
		if len(want.Meta) == 0 {
			want.Meta = nil
		}
		var wire map[string]any
		json.Unmarshal([]byte(callIDs.ReplaceAllString(mustJSON(t, want), "call_ID")), &wire)
		delete(wire, "resultType")
		if !sameJSON(t, json.RawMessage(got), wire) {
			t.Errorf("%s: CallToolResult gave %s, a client receives %s", tt.tool, got, mustJSON(t, wire))
		}
	}
	got := mcpbridge.CallToolResult(byName["crashy_echo"], nil, host.ErrNotAllowed)
	if !got.IsError || len(got.Content) != 1 {
		t.Errorf("a refused call: got %s, want an error result", mustJSON(t, got))
	}
}

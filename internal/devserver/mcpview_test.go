package devserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestMCPEntry: the tools/list entry an MCP client receives, as modhost
// mcp lists it, or why it is not listed.
func TestMCPEntry(t *testing.T) {
	t.Parallel()
	f := start(t, clientsideDir, "../../examples/research")
	type listed struct {
		Listed bool            `json:"listed"`
		Why    string          `json:"why"`
		Entry  json.RawMessage `json:"entry"`
	}
	tests := []struct {
		path   string
		listed bool
		want   []string // in the entry, or in why
	}{
		{"/api/tools/clientside_clock/mcp", true, []string{`"name":"clientside_clock"`, `"inputSchema":{`}},
		{"/api/tools/research_search_workspace/mcp", true, []string{`"_meta":{"ui":{"resourceUri":"ui://research/research_search_workspace"}`, `"outputSchema":{`}},
		{"/api/tools/clientside_pick/mcp", false, []string{"only a client application runs"}},
		{"/api/tools/research_save_note/mcp?agent=researcher", false, []string{"allowlist"}},
		{"/api/tools/research_word_count/mcp?agent=researcher", true, []string{`"name":"research_word_count"`}},
	}
	for _, tt := range tests {
		var got listed
		f.decode("GET", tt.path, nil, http.StatusOK, &got)
		text := got.Why
		if got.Listed {
			text = string(got.Entry)
		}
		if got.Listed != tt.listed {
			t.Errorf("%s: got listed %v (%s), want %v", tt.path, got.Listed, text, tt.listed)
		}
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: got %s, want it to contain %s", tt.path, text, w)
			}
		}
	}
	if code, body := f.do("GET", "/api/tools/no_such_tool/mcp", nil); code != http.StatusNotFound {
		t.Errorf("an unknown tool: got %d %s, want 404", code, body)
	}
}

// TestMCPResult: every outcome carries the tools/call result an MCP client
// would receive: content and structuredContent when completed, isError
// with the reason otherwise.
func TestMCPResult(t *testing.T) {
	t.Parallel()
	f := start(t, quickDir)
	tests := []struct{ tool, input, agent, want string }{
		{"quick_echo", `{"text":"hi"}`, "", `{"content":[{"text":"hi","type":"text"}]}`},
		{"no_such_tool", `{}`, "", ``},
	}
	for _, tt := range tests {
		o := f.outcome(f.call(tt.tool, tt.input, tt.agent))
		got, _ := json.Marshal(o["mcp"])
		if tt.want == "" {
			if o["mcp"] != nil {
				t.Errorf("%s: got MCP result %s, want none for a tool not loaded", tt.tool, got)
			}
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s: got MCP result %s, want %s", tt.tool, got, tt.want)
		}
	}
}

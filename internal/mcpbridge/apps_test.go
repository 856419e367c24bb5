package mcpbridge_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

func TestAppsToolMeta(t *testing.T) {
	t.Parallel()
	cs := connectClient(t, loadHost(t, crashyDir), nil, uiClient())
	res, err := cs.ListTools(callCtx(t), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	uri := mcpbridge.AppURI("crashy", "crashy_report")
	for _, tool := range res.Tools {
		meta := mustJSON(t, tool.Meta)
		switch tool.Name {
		case "crashy_report":
			want := `{"ui":{"resourceUri":"` + uri + `"},"ui/resourceUri":"` + uri + `"}`
			if !sameJSON(t, tool.Meta, json.RawMessage(want)) {
				t.Errorf("crashy_report _meta: got %s, want %s", meta, want)
			}
		case mcpbridge.RenderViewTool:
			want := `{"ui":{"visibility":["app"]}}`
			if !sameJSON(t, tool.Meta, json.RawMessage(want)) {
				t.Errorf("%s _meta: got %s, want %s", tool.Name, meta, want)
			}
		default:
			if tool.Meta != nil {
				t.Errorf("%s _meta: got %s, want none", tool.Name, meta)
			}
		}
	}
}

// TestAppsRenderToolForUIClients checks that the app-only render tool is
// listed only to clients that declare the MCP Apps extension.
func TestAppsRenderToolForUIClients(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	for _, tt := range []struct {
		name  string
		copts *mcp.ClientOptions
		want  bool
	}{
		{"plain client", nil, false},
		{"MCP Apps host", uiClient(), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := connectClient(t, h, nil, tt.copts).ListTools(callCtx(t), nil)
			if err != nil {
				t.Fatalf("ListTools: %v", err)
			}
			got := slices.ContainsFunc(res.Tools, func(tool *mcp.Tool) bool { return tool.Name == mcpbridge.RenderViewTool })
			if got != tt.want {
				t.Errorf("%s listed: got %v, want %v", mcpbridge.RenderViewTool, got, tt.want)
			}
		})
	}
}

func TestAppsNoViewsNoRenderTool(t *testing.T) {
	t.Parallel()
	cs := connectClient(t, loadHost(t, conformanceDir), nil, uiClient())
	res, err := cs.ListTools(callCtx(t), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	for _, tool := range res.Tools {
		if tool.Name == mcpbridge.RenderViewTool {
			t.Errorf("%s is listed though no tool has a view", tool.Name)
		}
	}
}

func TestAppsResource(t *testing.T) {
	t.Parallel()
	cs := connect(t, loadHost(t, crashyDir), nil, nil)
	uri := mcpbridge.AppURI("crashy", "crashy_report")
	list, err := cs.ListResources(callCtx(t), nil)
	if err != nil {
		t.Fatalf("ListResources: %v", err)
	}
	if len(list.Resources) != 1 || list.Resources[0].URI != uri || list.Resources[0].MIMEType != mcpbridge.AppMIMEType {
		t.Errorf("resources: got %s, want one %s of type %s", mustJSON(t, list.Resources), uri, mcpbridge.AppMIMEType)
	}
	res, err := cs.ReadResource(callCtx(t), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("ReadResource: %v", err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("contents: got %d, want 1", len(res.Contents))
	}
	c := res.Contents[0]
	if c.MIMEType != mcpbridge.AppMIMEType || c.URI != uri {
		t.Errorf("content: got %s %s, want %s %s", c.URI, c.MIMEType, uri, mcpbridge.AppMIMEType)
	}
	for _, want := range []string{
		`const TOOL = "crashy_report";`,
		`const RENDER_TOOL = "` + mcpbridge.RenderViewTool + `";`,
		`"ui/initialize"`,
		`"ui/notifications/tool-result"`,
		`"ui/notifications/host-context-changed"`,
	} {
		if !strings.Contains(c.Text, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// The page renders into itself: no frame of its own, which a host's
	// allow-scripts-only sandbox would make unreadable.
	if strings.Contains(c.Text, "<iframe") {
		t.Errorf("page has a frame of its own")
	}
}

func TestAppsRenderView(t *testing.T) {
	t.Parallel()
	cs := connect(t, loadHost(t, crashyDir), nil, nil)
	tests := []struct {
		name      string
		args      map[string]any
		want      string
		wantError bool
	}{
		{"preparing", map[string]any{"tool": "crashy_report", "phase": "preparing", "input": map[string]any{"title": "Par"}}, "<p>preparing Par</p>", false},
		{"running", map[string]any{"tool": "crashy_report", "phase": "running", "input": map[string]any{"title": "a b"}}, "<p>running a b</p>", false},
		{"completed", map[string]any{
			"tool": "crashy_report", "phase": "completed",
			"input":  map[string]any{"title": "a b"},
			"result": map[string]any{"title": "a <b>", "words": 2},
		}, "<p>a &lt;b&gt;: 2 words</p>", false},
		{"failed", map[string]any{"tool": "crashy_report", "phase": "failed", "error": "no <luck>"}, "<p class=error>no &lt;luck&gt;</p>", false},
		{"no view", map[string]any{"tool": "crashy_echo", "phase": "running"}, `/tool: "crashy_echo" has no view`, true},
		{"bad phase", map[string]any{"tool": "crashy_report", "phase": "later"}, `/phase: "later" is not a phase`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: mcpbridge.RenderViewTool, Arguments: tt.args})
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if res.IsError != tt.wantError {
				t.Errorf("isError: got %v, want %v: %s", res.IsError, tt.wantError, mustJSON(t, res))
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if !strings.Contains(text, tt.want) {
				t.Errorf("text: got %q, want it to contain %q", text, tt.want)
			}
			if !tt.wantError && !sameJSON(t, res.StructuredContent, map[string]string{"html": text}) {
				t.Errorf("structuredContent: got %s, want the HTML", mustJSON(t, res.StructuredContent))
			}
		})
	}
}

func TestAppsAgentWithoutViews(t *testing.T) {
	t.Parallel()
	cs := connect(t, loadHost(t, crashyDir), &mcpbridge.Options{Agent: "echoer"}, nil)
	res, err := cs.ListTools(callCtx(t), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if slices.Contains(names, mcpbridge.RenderViewTool) {
		t.Errorf("tools %v: the agent may call no tool with a view, so %s should not be listed", names, mcpbridge.RenderViewTool)
	}
}

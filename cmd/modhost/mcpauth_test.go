package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// scopedBackend serves one tool that needs notes.write; no call reaches
// it in the test.
type scopedBackend struct{}

func (scopedBackend) Tools(string) ([]host.Tool, error) {
	return []host.Tool{{Mod: "m", Tool: manifest.Tool{Name: "save", Description: "Saves.", Kind: manifest.KindPlain,
		InputSchema: json.RawMessage(`{"type":"object"}`), Scopes: []string{"notes.write"}}}}, nil
}

func (scopedBackend) Call(context.Context, *host.CallRequest) (*host.CallResult, error) {
	return &host.CallResult{Status: host.StatusCompleted, Text: "saved"}, nil
}

func (scopedBackend) RenderView(context.Context, string, sdk.RawViewState) (string, error) {
	return "", host.ErrNoView
}

// TestServeHTTPAuth: with an authorization server, serveHTTP serves the
// protected-resource metadata at both well-known paths and challenges a
// request without a token.
func TestServeHTTPAuth(t *testing.T) {
	t.Parallel()
	is := mcpauthtest.NewIssuer(t)
	tools, _ := scopedBackend{}.Tools("")
	auth, err := mcpauth.New(t.Context(), &mcpauth.Options{Issuer: is.URL, Resource: "https://mcp.example/mcp", Scopes: mcpbridge.Scopes(tools, nil)})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpbridge.NewServer(scopedBackend{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveHTTP(ctx, srv, "127.0.0.1:0", pw, &mcpbridge.HTTPOptions{Auth: auth}, nil, nil)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	if !sc.Scan() {
		t.Fatal("serveHTTP printed no URL")
	}
	go io.Copy(io.Discard, pr)
	url := regexp.MustCompile(`http://\S+/mcp`).FindString(sc.Text())
	base := strings.TrimSuffix(url, "/mcp")
	want := `{"resource":"https://mcp.example/mcp","authorization_servers":["` + is.URL + `"],"scopes_supported":["notes.write"],"bearer_methods_supported":["header"]}`
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != want {
			t.Errorf("GET %s: got %d %s, want 200 %s", path, resp.StatusCode, body, want)
		}
	}
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge := `Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", scope="notes.write"`
	if got := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 401 || got != challenge {
		t.Errorf("POST without a token: got %d %q, want 401 %q", resp.StatusCode, got, challenge)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serveHTTP: %v", err)
	}
}

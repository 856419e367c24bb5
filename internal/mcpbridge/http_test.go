package mcpbridge_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// serveHTTP serves the crashy mod over streamable HTTP on a loopback port
// and returns the endpoint's URL.
func serveHTTP(t *testing.T) string {
	t.Helper()
	srv, err := mcpbridge.NewServer(loadHost(t, crashyDir), nil)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	mux := http.NewServeMux()
	mux.Handle(mcpbridge.HTTPPath, srv.NewHTTPHandler(nil))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL + mcpbridge.HTTPPath
}

func TestHTTP(t *testing.T) {
	t.Parallel()
	url := serveHTTP(t)
	n := newNotes()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, n.clientOptions()).
		Connect(callCtx(t), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	// A client of 2025-11-25 gets a session, where it sets its log level
	// once.
	if v, id := cs.InitializeResult().ProtocolVersion, cs.ID(); v != "2025-11-25" || id == "" {
		t.Fatalf("protocol %s, session %q: want 2025-11-25 with a session", v, id)
	}
	if err := cs.SetLoggingLevel(callCtx(t), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatalf("SetLoggingLevel: %v", err)
	}
	params := &mcp.CallToolParams{Name: "crashy_flood", Arguments: map[string]any{"n": 1}}
	params.SetProgressToken("http")
	res, err := cs.CallTool(callCtx(t), params)
	if err != nil || res.IsError {
		t.Fatalf("CallTool: %v %s", err, mustJSON(t, res))
	}
	n.settle(t, 2, 1)
	progress, logs := n.snapshot()
	if len(progress) != 2 || len(logs) != 1 {
		t.Errorf("notifications: got %d progress and %d logs, want 2 and 1", len(progress), len(logs))
	}
}

// TestHTTPBothRevisions serves a client of 2025-11-25, in a session, and one
// of 2026-07-28, without, on one URL at once.
func TestHTTPBothRevisions(t *testing.T) {
	t.Parallel()
	url := serveHTTP(t)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			n := newNotes()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, n.clientOptions()).
				Connect(callCtx(t), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("protocol: got %s, want %s", got, version)
			}
			if id, sessions := cs.ID(), version < "2026-07-28"; (id != "") != sessions {
				t.Errorf("session id %q: want one only before 2026-07-28", id)
			}
			tools, err := cs.ListTools(callCtx(t), nil)
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("ListTools: %v, %d tools", err, len(tools.Tools))
			}
			params := &mcp.CallToolParams{Name: "crashy_flood", Arguments: map[string]any{"n": 1}}
			params.SetProgressToken(version)
			res, err := cs.CallTool(callCtx(t), params)
			if err != nil || res.IsError {
				t.Fatalf("CallTool: %v %s", err, mustJSON(t, res))
			}
			n.settle(t, 2, 0)
			if progress, _ := n.snapshot(); len(progress) != 2 {
				t.Errorf("progress notifications: got %d, want 2", len(progress))
			}
		})
	}
}

// TestHTTPRebinding checks the protections of a loopback server against web
// pages: a foreign Host header (DNS rebinding) and a cross-origin browser
// request are refused; a local client is served.
func TestHTTPRebinding(t *testing.T) {
	t.Parallel()
	url := serveHTTP(t)
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	local := strings.TrimPrefix(strings.TrimSuffix(url, mcpbridge.HTTPPath), "http://")
	tests := []struct {
		name   string
		host   string
		header map[string]string
		want   int
	}{
		{"local", local, map[string]string{"Origin": "http://" + local}, http.StatusOK},
		{"no origin", local, nil, http.StatusOK},
		{"rebinding", "evil.example.com", map[string]string{"Origin": "http://evil.example.com"}, http.StatusForbidden},
		{"rebinding with port", "evil.example.com:80", nil, http.StatusForbidden},
		{"cross origin", local, map[string]string{"Origin": "http://evil.example.com", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(callCtx(t), http.MethodPost, url, strings.NewReader(initialize))
			if err != nil {
				t.Fatal(err)
			}
			req.Host = tt.host
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("POST: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("status: got %d, want %d", resp.StatusCode, tt.want)
			}
		})
	}
}

func TestListenAddr(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{":8080", "127.0.0.1:8080"},
		{"127.0.0.1:0", "127.0.0.1:0"},
		{"localhost:9", "localhost:9"},
		{"[::1]:9", "[::1]:9"},
		{"0.0.0.0:9", "0.0.0.0:9"},
		{"nonsense", "nonsense"},
	}
	for _, tt := range tests {
		if got := mcpbridge.ListenAddr(tt.in); got != tt.want {
			t.Errorf("ListenAddr(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

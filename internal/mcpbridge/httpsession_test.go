package mcpbridge

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/mcpwire"
)

// rawHTTP is a client that posts JSON-RPC messages by hand.
type rawHTTP struct {
	t   *testing.T
	url string
	h   *HTTPHandler
}

func newRawHTTP(t *testing.T, backend Backend, opts *HTTPOptions) *rawHTTP {
	t.Helper()
	srv, err := NewServer(backend, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); ts.Close() })
	return &rawHTTP{t: t, url: ts.URL + HTTPPath, h: h}
}

// post posts body in session ("" for none).
func (c *rawHTTP) post(session, body string) *http.Response {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// initialize opens a session and returns its id.
func (c *rawHTTP) initialize() string {
	c.t.Helper()
	resp := c.post("", initializeLine)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		c.t.Fatalf("initialize: got %s, session %q", resp.Status, id)
	}
	resp = c.post(id, initializedLine)
	resp.Body.Close()
	return id
}

// rpcError reads a JSON-RPC error response.
func rpcError(t *testing.T, resp *http.Response) (id any, code float64) {
	t.Helper()
	defer resp.Body.Close()
	var m struct {
		ID    any `json:"id"`
		Error struct {
			Code float64 `json:"code"`
		} `json:"error"`
	}
	data, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" || json.Unmarshal(data, &m) != nil {
		t.Fatalf("got %s %s body %s, want a JSON-RPC error", resp.Status, ct, data)
	}
	return m.ID, m.Error.Code
}

func TestHTTPErrorShapes(t *testing.T) {
	t.Parallel()
	c := newRawHTTP(t, waitBackend(make(chan struct{}), make(chan struct{})), nil)
	session := c.initialize()

	resp := c.post(session, `{"jsonrpc":"2.0","id":7,"method":"tools/nope"}`)
	if id, code := rpcError(t, resp); resp.StatusCode != http.StatusOK || id != 7.0 || code != -32601 {
		t.Errorf("unknown method: got %s, id %v, code %v; want 200, 7, -32601", resp.Status, id, code)
	}
	resp = c.post("", `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`)
	if id, code := rpcError(t, resp); resp.StatusCode != http.StatusBadRequest || id != 8.0 || code != -32600 {
		t.Errorf("no session id: got %s, id %v, code %v; want 400, 8, -32600", resp.Status, id, code)
	}
	resp = c.post(session, `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("tools/list in the session: got %s, want 200", resp.Status)
	}
	// Bodies that are not JSON-RPC get a JSON-RPC error with id null, in or
	// out of a session.
	for _, tt := range []struct {
		name, body string
		code       float64
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":10,`, -32700},
		{"text", `hello`, -32700},
		{"empty", ``, -32600},
		{"no jsonrpc", `{"id":11,"method":"ping"}`, -32600},
		{"a number", `42`, -32600},
		{"empty batch", `[]`, -32600},
	} {
		for _, in := range []string{"", session} {
			resp := c.post(in, tt.body)
			if id, code := rpcError(t, resp); resp.StatusCode != http.StatusBadRequest || id != nil || code != tt.code {
				t.Errorf("%s (session %q): got %s, id %v, code %v; want 400, null, %v", tt.name, in, resp.Status, id, code, tt.code)
			}
		}
	}
}

// TestHTTPSessionStreamHolds checks that an open event stream keeps its
// session busy, so that it never expires, and that requests count too.
func TestHTTPSessionStreamHolds(t *testing.T) {
	t.Parallel()
	c := newRawHTTP(t, waitBackend(make(chan struct{}), make(chan struct{})), nil)
	session := c.initialize()
	busy := func() int {
		c.h.clock.mu.Lock()
		defer c.h.clock.mu.Unlock()
		if u := c.h.clock.sessions[session]; u != nil {
			return u.busy
		}
		return -1
	}
	if got := busy(); got != 0 {
		t.Fatalf("a new session: busy %d, want 0 (known, idle)", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %v %v", err, resp)
	}
	if got := busy(); got != 1 {
		t.Errorf("with the event stream open: busy %d, want 1", got)
	}
	resp.Body.Close()
	// The server notices the closed stream when it next writes, or when the
	// session ends: end it, and the clock forgets it.
	del, _ := http.NewRequest(http.MethodDelete, c.url, nil)
	del.Header.Set("Mcp-Session-Id", session)
	del.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if resp, err := http.DefaultClient.Do(del); err != nil || resp.StatusCode >= 300 {
		t.Fatalf("DELETE: %v %v", err, resp)
	}
	if got := busy(); got != -1 {
		t.Errorf("after DELETE: busy %d, want -1 (forgotten)", got)
	}
}

func TestHTTPSessionCap(t *testing.T) {
	t.Parallel()
	c := newRawHTTP(t, waitBackend(make(chan struct{}), make(chan struct{})), &HTTPOptions{MaxSessions: 2})
	first := c.initialize()
	c.initialize()
	resp := c.post("", initializeLine)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a third session: got %s, Retry-After %q; want 503 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}
	// Ending a session makes room.
	req, _ := http.NewRequest(http.MethodDelete, c.url, nil)
	req.Header.Set("Mcp-Session-Id", first)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode >= 300 {
		t.Fatalf("DELETE: %v %v", err, resp)
	}
	c.initialize()
}

func TestHTTPSessionTimeout(t *testing.T) {
	t.Parallel()
	c := newRawHTTP(t, waitBackend(make(chan struct{}), make(chan struct{})), &HTTPOptions{SessionTimeout: 50 * time.Millisecond})
	session := c.initialize()
	// The idle session expires, then its id is no longer known.
	for deadline := time.Now().Add(time.Minute); c.h.liveSessions() > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the idle session is still open a minute later")
		}
	}
	resp := c.post(session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a request in the expired session: got %s, want 404", resp.Status)
	}
}

// TestHTTPCancelledNoAnswer cancels a call: its event stream ends without
// an answer.
func TestHTTPCancelledNoAnswer(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	c := newRawHTTP(t, waitBackend(started, cancelled), nil)
	session := c.initialize()
	events := make(chan string, 10)
	go func() {
		defer close(events)
		resp := c.post(session, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- data
			}
		}
	}()
	<-started
	resp := c.post(session, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"no longer needed"}}`)
	resp.Body.Close()
	<-cancelled
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		select {
		case data, ok := <-events:
			if !ok {
				return
			}
			if id, ok := mcpwire.ResponseID([]byte(data)); ok && id == "5" {
				t.Errorf("the cancelled call was answered: %s", data)
			}
		case <-ctx.Done():
			t.Fatal("the call's event stream did not end")
		}
	}
}

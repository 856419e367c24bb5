package mcpbridge

import (
	"bytes"
	"context"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestServerCollected checks that a Server holds its state itself: once
// it has served a stdio session (a call on the direct path) and an HTTP
// handler (a plain call, a task, a session) and is dropped, it is
// collected, with the SDK's server and the tasks it made.
func TestServerCollected(t *testing.T) {
	collected := make(chan string, 3)
	func() {
		srv, err := NewServer(newTaskBackend(), nil)
		if err != nil {
			t.Fatal(err)
		}
		in := strings.Join([]string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"plain","arguments":{}}}`,
		}, "\n")
		var out bytes.Buffer
		if err := srv.ServeStdio(context.Background(), strings.NewReader(in), &out, nil); err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
		if !strings.Contains(out.String(), `"id":2,"result"`) {
			t.Fatalf("got %s, want a result of call 2", out.String())
		}
		h := srv.NewHTTPHandler(nil)
		meta := `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"` + TasksExtension + `":{}}}}}}`
		for _, c := range []struct{ name, want string }{{"plain", `"resultType":"complete"`}, {"flash", `"taskId"`}} {
			req := httptest.NewRequest("POST", "http://127.0.0.1"+HTTPPath,
				strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+c.name+`","arguments":{}`+meta))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", c.name)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if !strings.Contains(w.Body.String(), c.want) {
				t.Fatalf("tools/call %s: got %d %s, want %s", c.name, w.Code, w.Body, c.want)
			}
		}
		req := httptest.NewRequest("POST", "http://127.0.0.1"+HTTPPath,
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Header().Get(sessionHeader) == "" {
			t.Fatalf("initialize: got %d %s, want a session", w.Code, w.Body)
		}
		h.Close()
		note := func(what string) { collected <- what }
		runtime.AddCleanup(srv, note, "the Server")
		runtime.AddCleanup(srv.mcp, note, "the SDK's server")
		runtime.AddCleanup(srv.tasks, note, "the task runner")
	}()
	want := map[string]bool{"the Server": true, "the SDK's server": true, "the task runner": true}
	deadline := time.Now().Add(30 * time.Second)
	for len(want) > 0 {
		runtime.GC()
		select {
		case what := <-collected:
			delete(want, what)
		case <-time.After(10 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatalf("not collected 30 s after the server was dropped: %v", want)
			}
		}
	}
}

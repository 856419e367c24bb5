package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
)

func TestRequestCount(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 1},
		{`{"jsonrpc":"2.0","id":"a","method":"ping"}`, 1},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0},
		{`{"jsonrpc":"2.0","id":null,"method":"x"}`, 0},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 0},
		{`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","id":2,"method":"c"}]`, 2},
		{`not json`, 0},
		{`  `, 0},
	}
	for _, tt := range tests {
		if got := requestCount([]byte(tt.line)); got != tt.want {
			t.Errorf("requestCount(%s): got %d, want %d", tt.line, got, tt.want)
		}
	}
}

func TestResponseCount(t *testing.T) {
	tests := []struct {
		msg  string
		want int
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"method":"not a key of the message"}}` + "\n", 1},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, 1},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"result":1}}`, 0},
		{`{"jsonrpc":"2.0","id":7,"method":"ping"}`, 0},
		{`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{}}]`, 2},
		{`oops`, 0},
	}
	for _, tt := range tests {
		if got := responseCount([]byte(tt.msg)); got != tt.want {
			t.Errorf("responseCount(%s): got %d, want %d", tt.msg, got, tt.want)
		}
	}
}

// TestServeStdioAnswersBeforeEOF writes requests, one of them slow, and
// closes the input at once: every request is answered.
func TestServeStdioAnswersBeforeEOF(t *testing.T) {
	b := &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("slow", `{"type":"object"}`)}},
		call: func(req *host.CallRequest) *host.CallResult {
			time.Sleep(200 * time.Millisecond)
			return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "done", Result: json.RawMessage(`{}`)}
		},
	}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
		// The last line has no newline.
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
	}, "\n")
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ServeStdio(ctx, srv, strings.NewReader(in), &out); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	ids := map[string]bool{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", sc.Bytes(), err)
		}
		if len(m.Result) > 0 {
			ids[string(m.ID)] = true
		}
	}
	for _, id := range []string{"1", "2", "3"} {
		if !ids[id] {
			t.Errorf("no result for request %s in:\n%s", id, out.String())
		}
	}
}

// TestServeStdioStopsOnCancel checks that cancelling ctx ends a session
// whose input stays open.
func TestServeStdioStopsOnCancel(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, srv, r, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio after cancel: got %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio still runs 10s after its context was cancelled")
	}
}

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

func TestIDKey(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`1`, "1"},
		{`1.0`, "1"},
		{` -7 `, "-7"},
		{`2.5`, "2.5"},
		{`"a"`, `"a"`},
		{`"1"`, `"1"`},
		{`null`, ""},
		{``, ""},
		{`{}`, ""},
	}
	for _, tt := range tests {
		if got := idKey(json.RawMessage(tt.raw)); got != tt.want {
			t.Errorf("idKey(%s): got %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestResponseID(t *testing.T) {
	tests := []struct {
		msg    string
		want   string
		wantOK bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"method":"a key of the result, not of the message"}}` + "\n", "1", true},
		{`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no"}}`, `"x"`, true},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"result":1}}`, "", false},
		{`{"jsonrpc":"2.0","id":7,"method":"ping"}`, "", false},
		{`{"jsonrpc":"2.0","id":null,"error":{}}`, "", false},
		{`[{"jsonrpc":"2.0","id":1,"result":{}}]`, "", false},
		{`oops`, "", false},
	}
	for _, tt := range tests {
		got, ok := responseID([]byte(tt.msg))
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("responseID(%s): got %q, %v, want %q, %v", tt.msg, got, ok, tt.want, tt.wantOK)
		}
	}
}

// TestServeStdioCancelled checks that a request the client cancelled gets
// no response, that its running handler sees the cancellation, and that the
// session still ends when the input does.
func TestServeStdioCancelled(t *testing.T) {
	started := make(chan struct{})
	sawCancel := make(chan struct{})
	b := &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("wait", `{"type":"object"}`)}},
		call: func(ctx context.Context, req *host.CallRequest) *host.CallResult {
			close(started)
			select {
			case <-ctx.Done():
				close(sawCancel)
				return &host.CallResult{Tool: req.Tool, Status: host.StatusCancelled, Error: "call cancelled"}
			case <-time.After(time.Minute):
				return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "waited"}
			}
		},
	}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, w := io.Pipe()
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, srv, r, &out) }()
	send := func(lines ...string) {
		for _, l := range lines {
			if _, err := io.WriteString(w, l+"\n"); err != nil {
				t.Fatal(err)
			}
		}
	}
	send(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{}}}`,
	)
	<-started
	send(
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"changed my mind"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	)
	w.Close()
	if err := <-done; err != nil || ctx.Err() != nil {
		t.Fatalf("ServeStdio: got %v (context %v), want nil before the context expires", err, ctx.Err())
	}
	select {
	case <-sawCancel:
	default:
		t.Errorf("the handler did not see the cancellation; output:\n%s", out.String())
	}
	got := map[string]bool{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if id, ok := responseID(sc.Bytes()); ok {
			got[id] = true
		}
	}
	if !got["1"] || !got["3"] || got["2"] {
		t.Errorf("responses to %v, want to 1 and 3 and not to the cancelled 2; output:\n%s", got, out.String())
	}
}

// TestServeStdioAnswersBeforeEOF writes requests, one of them slow, and
// closes the input at once: every request is answered.
func TestServeStdioAnswersBeforeEOF(t *testing.T) {
	b := &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("slow", `{"type":"object"}`)}},
		call: func(_ context.Context, req *host.CallRequest) *host.CallResult {
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

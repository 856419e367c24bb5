package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpwire"
)

func TestIDKey(t *testing.T) {
	t.Parallel()
	tests := []struct{ raw, want string }{
		{`1`, "1"},
		{`1.0`, "1"},
		{` -7 `, "-7"},
		{`2.5`, "2"},
		{`true`, ""},
		{`"a"`, `"a"`},
		{`"1"`, `"1"`},
		{`null`, ""},
		{``, ""},
		{`{}`, ""},
	}
	for _, tt := range tests {
		if got := mcpwire.IDKey(json.RawMessage(tt.raw)); got != tt.want {
			t.Errorf("mcpwire.IDKey(%s): got %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestResponseID(t *testing.T) {
	t.Parallel()
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
		got, ok := mcpwire.ResponseID([]byte(tt.msg))
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("mcpwire.ResponseID(%s): got %q, %v, want %q, %v", tt.msg, got, ok, tt.want, tt.wantOK)
		}
	}
}

// TestServeStdioCancelled checks that a request the client cancelled gets
// no response, that its running handler sees the cancellation, and that the
// session still ends when the input does.
func TestServeStdioCancelled(t *testing.T) {
	t.Parallel()
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
	go func() { done <- srv.ServeStdio(ctx, r, &out, nil) }()
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
		if id, ok := mcpwire.ResponseID(sc.Bytes()); ok {
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
	t.Parallel()
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
	if err := srv.ServeStdio(ctx, strings.NewReader(in), &out, nil); err != nil {
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
	t.Parallel()
	srv, err := NewServer(&fakeBackend{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, r, io.Discard, nil) }()
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

// stdioSession runs ServeStdio on pipes and returns a function that sends
// lines and a reader of the output's messages.
type stdioSession struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func startStdio(t *testing.T, srv *Server, w io.Writer, opts *StdioOptions) *stdioSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	if w == nil {
		w = outW
	}
	s := &stdioSession{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	s.out.Buffer(nil, 1<<20)
	go func() {
		err := srv.ServeStdio(t.Context(), inR, w, opts)
		outW.Close()
		s.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return s
}

func (s *stdioSession) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatalf("send: %v", err)
		}
	}
}

// next returns the next message written.
func (s *stdioSession) next() map[string]any {
	s.t.Helper()
	if !s.out.Scan() {
		s.t.Fatalf("no more output: %v", s.out.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(s.out.Bytes(), &m); err != nil {
		s.t.Fatalf("output %s: %v", s.out.Bytes(), err)
	}
	return m
}

const (
	initializeLine  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// waitBackend serves one tool, "wait", that runs until cancelled, closing
// started when it starts and cancelled when it sees the cancellation.
func waitBackend(started, cancelled chan struct{}) *fakeBackend {
	return &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("wait", `{"type":"object"}`)}},
		call: func(ctx context.Context, req *host.CallRequest) *host.CallResult {
			close(started)
			<-ctx.Done()
			close(cancelled)
			return &host.CallResult{Tool: req.Tool, Status: host.StatusCancelled, Error: "call cancelled"}
		},
	}
}

// TestServeStdioBadInput sends lines the SDK's transport dies of while a
// call runs: each gets its JSON-RPC error with id null, and the session
// serves on.
func TestServeStdioBadInput(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	srv, err := NewServer(waitBackend(started, cancelled), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := startStdio(t, srv, nil, &StdioOptions{MaxLineBytes: 4096})
	s.send(initializeLine)
	if m := s.next(); m["id"] != 1.0 || m["result"] == nil {
		t.Fatalf("initialize: got %v", m)
	}
	s.send(initializedLine, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	<-started
	bad := []struct {
		line string
		code float64
	}{
		{`hello`, -32700},
		{`{"jsonrpc":"2.0","id":3,"method":"ping"`, -32700},
		{`{"jsonrpc":"2.0","id":3,"method":"ping"} {}`, -32700},
		{`{"a":1}` + strings.Repeat(" ", 5000), -32700}, // over the line limit
		{`{"foo":1}`, -32600},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, -32600},
		{`{"JSONRPC":"2.0","id":3,"method":"ping"}`, -32600},
		{`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, -32600},
		{`"ping"`, -32600},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":3,"method":7}`, -32600},
		{`{"jsonrpc":"2.0","id":3,"error":"no"}`, -32600},
		{`{"jsonrpc":"2.0","result":{}}`, -32600},
		{`{"jsonrpc":"2.0","id":3,"method":"ping","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, -32600},
	}
	for _, b := range bad {
		s.send(b.line)
		m := s.next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != b.code || m["id"] != nil || m["jsonrpc"] != "2.0" {
			t.Errorf("%.60s: got %v, want error %v with id null", b.line, m, b.code)
		}
	}
	// Still serving: a ping is answered, and the call in flight finishes
	// when the client cancels it.
	s.send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	if m := s.next(); m["id"] != 4.0 || m["result"] == nil {
		t.Errorf("ping after bad input: got %v", m)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	<-cancelled
	s.in.Close()
	if err := <-s.done; err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
}

// TestServeStdioEOFWaits closes the input while a call runs: the call is
// not cancelled, runs to its end and is answered, then the session ends.
func TestServeStdioEOFWaits(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	b := &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("slow", `{"type":"object"}`)}},
		call: func(ctx context.Context, req *host.CallRequest) *host.CallResult {
			close(started)
			select {
			case <-release:
				return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "done", Result: json.RawMessage(`{}`)}
			case <-ctx.Done():
				return &host.CallResult{Tool: req.Tool, Status: host.StatusCancelled, Error: "call cancelled"}
			}
		},
	}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	s := startStdio(t, srv, nil, &StdioOptions{inputEnded: func() { close(ended) }})
	s.send(initializeLine, initializedLine, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
	s.next()
	<-started
	s.in.Close()
	<-ended
	close(release)
	m := s.next()
	res, _ := m["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if m["id"] != 2.0 || res["isError"] == true || len(content) != 1 || content[0].(map[string]any)["text"] != "done" {
		t.Errorf("answer to the call: got %v, want its result, done", m)
	}
	if err := <-s.done; err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
}

// TestServeStdioEOFAnswersServerRequests closes the input while a call
// waits for the client's answer to an elicitation: the session answers the
// elicitation with an error itself, as no answer can come, so the call
// ends, saying so, rather than waiting for ever or being cancelled.
func TestServeStdioEOFAnswersServerRequests(t *testing.T) {
	t.Parallel()
	b := &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("t_write", `{"type":"object"}`)}},
		call: func(ctx context.Context, req *host.CallRequest) *host.CallResult {
			_, err := req.Asker.Ask(ctx, &host.Question{Kind: host.AskForm, Key: host.ApprovalKey, Tool: req.Tool, Approval: true,
				Params: json.RawMessage(`{"mode":"form","message":"Write a.md","requestedSchema":{"type":"object","properties":{}}}`)})
			if err == nil {
				return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "ran", Result: json.RawMessage(`{}`)}
			}
			return &host.CallResult{Tool: req.Tool, Status: host.StatusFailed, Error: err.Error(), Text: "Tool failed: " + err.Error()}
		},
	}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := startStdio(t, srv, nil, nil)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}`)
	s.next()
	s.send(initializedLine, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t_write","arguments":{}}}`)
	if ask := s.next(); ask["method"] != "elicitation/create" {
		t.Fatalf("got %v, want an elicitation/create request", ask)
	}
	s.in.Close()
	m := s.next()
	if text, _ := json.Marshal(m); m["id"] != 2.0 || !strings.Contains(string(text), "input ended before it answered") {
		t.Errorf("answer to the call: got %s, want one saying the input ended before the client answered", text)
	}
	if err := <-s.done; err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
}

// brokenWriter fails every write once broken is closed.
type brokenWriter struct {
	w      io.Writer
	broken chan struct{}
}

func (b *brokenWriter) Write(p []byte) (int, error) {
	select {
	case <-b.broken:
		return 0, io.ErrClosedPipe
	default:
		return b.w.Write(p)
	}
}

// TestServeStdioBrokenOutput breaks the output while a call runs that would
// run for ever: the call is cancelled and the session ends with the write
// error, although the input stays open.
func TestServeStdioBrokenOutput(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	srv, err := NewServer(waitBackend(started, cancelled), nil)
	if err != nil {
		t.Fatal(err)
	}
	outR, outW := io.Pipe()
	bw := &brokenWriter{w: outW, broken: make(chan struct{})}
	s := startStdio(t, srv, bw, nil)
	s.out = bufio.NewScanner(outR)
	s.send(initializeLine)
	s.next()
	s.send(initializedLine, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	<-started
	close(bw.broken)
	s.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`) // its answer fails
	<-cancelled
	if err := <-s.done; !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("ServeStdio: got %v, want the write error", err)
	}
}

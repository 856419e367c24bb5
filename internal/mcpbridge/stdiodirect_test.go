package mcpbridge

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpwire"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// directBackend serves "echo", which answers its input, "text", which
// answers it as text alone, "fail", which
// fails, "closed", whose call finds the host closed, and "ask", which asks
// a question the client answers later.
type directBackend struct{ fakeBackend }

func (b *directBackend) Call(ctx context.Context, req *host.CallRequest) (*host.CallResult, error) {
	switch req.Tool {
	case "ask":
		// As the host: a question the Asker leaves for later ends the call.
		q := host.Question{Kind: host.AskForm, Key: "name",
			Params: json.RawMessage(`{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`)}
		answer, err := req.Asker.Ask(ctx, &q)
		switch {
		case errors.Is(err, host.ErrAskLater):
			return &host.CallResult{Tool: req.Tool, Status: host.StatusAsking, Questions: []host.Question{q}}, nil
		case err != nil:
			return &host.CallResult{Tool: req.Tool, Status: host.StatusFailed, Error: err.Error()}, nil
		}
		return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: string(answer)}, nil
	case "closed":
		return nil, host.ErrClosed
	case "fail":
		return &host.CallResult{Tool: req.Tool, Status: host.StatusFailed, Error: "no <luck> & no answer"}, nil
	case "text":
		return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: string(req.Input) + " <é>\n\u2028"}, nil
	}
	return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "echoed <b>&</b>", Result: req.Input}, nil
}

func (b *directBackend) RenderView(context.Context, string, sdk.RawViewState) (string, error) {
	return "", host.ErrNoView
}

// stdioAnswers runs one session over ServeStdio, the direct path on unless
// sdkOnly, writes open and then each of lines, one at a time, and returns
// the answer to each, its sealed request state blanked; it also returns
// how many calls the direct path took.
func stdioAnswers(t *testing.T, open string, lines []string, sdkOnly bool) (answers []string, direct int64) {
	t.Helper()
	b := &directBackend{fakeBackend{tools: []host.Tool{
		{Mod: "m", Tool: manifestTool("echo", `{"type":"object"}`)},
		{Mod: "m", Tool: manifestTool("fail", `{"type":"object"}`)},
		{Mod: "m", Tool: manifestTool("closed", `{"type":"object"}`)},
		{Mod: "m", Tool: manifestTool("ask", `{"type":"object"}`)},
		{Mod: "m", Tool: manifest.Tool{Name: "text", Description: "Test tool. Call it in tests.", Kind: manifest.KindPlain,
			InputSchema: json.RawMessage(`{"type":"object"}`)}},
	}}}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	var d *stdioDirect
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := srv.ServeStdio(t.Context(), inR, outW, &StdioOptions{sdkOnly: sdkOnly, direct: func(s *stdioDirect) { d = s }})
		outW.Close()
		done <- err
	}()
	out := bufio.NewScanner(outR)
	out.Buffer(nil, 1<<20)
	next := func() string {
		if !out.Scan() {
			t.Fatalf("no answer: %v", out.Err())
		}
		return out.Text()
	}
	io.WriteString(inW, open+"\n")
	next()
	for _, l := range lines {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			t.Fatal(err)
		}
		answers = append(answers, requestStateMember.ReplaceAllString(next(), `"requestState":"…"`))
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	if d != nil {
		direct = d.served.Load()
	}
	return answers, direct
}

// requestStateMember matches a sealed request state, which differs from server to
// server.
var requestStateMember = regexp.MustCompile(`"requestState":"[^"]*"`)

// sessionless2026 is the _meta of a sessionless (2026-07-28) request, and
// discoverLine the request a client of that revision opens with.
const (
	sessionless2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`
	discoverLine    = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + sessionless2026 + `}}`
)

// TestStdioDirectAnswersAsTheSDK sends the same requests through the direct
// path and through the SDK alone: every answer is the same, byte for byte,
// and the direct path takes the plain calls only.
func TestStdioDirectAnswersAsTheSDK(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		direct bool
	}{
		{"echo", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"<a&b>","n":3}}}`, true},
		{"members in another order", `{"params":{"arguments":{},"name":"echo"},"method":"tools/call","id":3,"jsonrpc":"2.0"}`, true},
		{"no arguments", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo"}}`, true},
		{"string id", `{"jsonrpc":"2.0","id":"call-5","method":"tools/call","params":{"name":"echo","arguments":{}}}`, true},
		{"failed", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"fail","arguments":{}}}`, true},
		{"error", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"closed","arguments":{}}}`, true},
		{"unknown tool", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, false},
		{"_meta", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{},"_meta":{"progressToken":1}}}`, false},
		{"float id", `{"jsonrpc":"2.0","id":10.0,"method":"tools/call","params":{"name":"echo","arguments":{}}}`, false},
		{"escaped id", `{"jsonrpc":"2.0","id":"\u0041","method":"tools/call","params":{"name":"echo","arguments":{}}}`, false},
		{"arguments not an object", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":[1]}}`, false},
		{"name twice", `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"fail","name":"echo","arguments":{}}}`, false},
		{"another member", `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"echo","arguments":{}},"extra":1}`, false},
		{"escaped name", `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"ech\u006f","arguments":{}}}`, true},
		{"ask", `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"ask","arguments":{}}}`, true},
		{"sessionless in a session", `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"echo","arguments":{},` + sessionless2026 + `}}`, true},
		{"sessionless echo", `{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"echo","arguments":{"a":"<&>"},` + sessionless2026 + `}}`, true},
		{"sessionless fail", `{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"fail","arguments":{},` + sessionless2026 + `}}`, true},
		{"sessionless error", `{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"closed",` + sessionless2026 + `}}`, true},
		{"sessionless ask", `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"ask","arguments":{},` + sessionless2026 + `}}`, true},
		{"sessionless with a log level", `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"echo","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}}}`, false},
		{"text", `{"jsonrpc":"2.0","id":24,"method":"tools/call","params":{"name":"text","arguments":{"a":"<&>\u00e9"}}}`, true},
		{"sessionless text", `{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"text","arguments":{"a":"<&>"},` + sessionless2026 + `}}`, true},
		{"sessionless, version escaped", `{"jsonrpc":"2.0","id":26,"method":"tools/call","params":{"name":"text","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026\u002d07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, false},
		{"sessionless, _meta member twice", `{"jsonrpc":"2.0","id":27,"method":"tools/call","params":{"name":"text","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientCapabilities":{}}}}`, false},
		{"sessionless, no _meta", `{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"echo","arguments":{}}}`, false},
		{"sessionless, another revision", `{"jsonrpc":"2.0","id":23,"method":"tools/call","params":{"name":"echo","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2027-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			open := initializeLine + "\n" + initializedLine
			if strings.HasPrefix(tt.name, "sessionless") && tt.name != "sessionless in a session" {
				open = discoverLine
			}
			sdkAnswers, _ := stdioAnswers(t, open, []string{tt.line}, true)
			got, direct := stdioAnswers(t, open, []string{tt.line}, false)
			if got[0] != sdkAnswers[0] {
				t.Errorf("direct path answered\n%s\nthe SDK\n%s", got[0], sdkAnswers[0])
			}
			if want := map[bool]int64{true: 1, false: 0}[tt.direct]; direct != want {
				t.Errorf("direct path took %d calls, want %d", direct, want)
			}
		})
	}
}

// TestStdioDirectNotBeforeInitialized: a call before initialize is the
// SDK's to refuse.
func TestStdioDirectNotBeforeInitialized(t *testing.T) {
	srv, err := NewServer(echoBackend(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	in := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}` + "\n"
	if err := srv.ServeStdio(t.Context(), strings.NewReader(in), &out, nil); err != nil {
		t.Fatal(err)
	}
	var m struct {
		Error *struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(out.String()), &m); err != nil || m.Error == nil {
		t.Fatalf("got %q, want an error answer", out.String())
	}
}

// FuzzPlainCallParams checks that the params the direct path takes, valid
// JSON as every line it sees, decode as the SDK decodes them.
func FuzzPlainCallParams(f *testing.F) {
	for _, s := range []string{`{"name":"echo","arguments":{"a":1}}`, `{"name":"x","_meta":{"k":[1]}}`, `{"name":"x","_meta":null}`, `{"name":"e\"x"}`, `{"arguments":{},"name":"x"}`, `{"name":1}`, `{"name":"a","name":"b"}`, `{"name":"a","arguments":[]}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return // the line was checked before
		}
		p, ok := plainCallParams(data, nil)
		if !ok {
			return
		}
		var want struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
			Meta      map[string]any  `json:"_meta"`
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("plainCallParams took %s, which does not decode: %v", data, err)
		}
		if p.Name != want.Name || string(p.Arguments) != string(want.Arguments) || !reflect.DeepEqual(map[string]any(p.Meta), want.Meta) {
			t.Fatalf("plainCallParams(%s) = %q %s, want %q %s", data, p.Name, p.Arguments, want.Name, want.Arguments)
		}
	})
}

// TestStdioDirectTakesSDKClientCalls: the calls of go-sdk's client, at its
// default revision and at 2025-11-25, take the direct path.
func TestStdioDirectTakesSDKClientCalls(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("revision "+version, func(t *testing.T) {
			srv, err := NewServer(echoBackend(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var d atomic.Pointer[stdioDirect]
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan error, 1)
			go func() {
				err := srv.ServeStdio(t.Context(), inR, outW, &StdioOptions{direct: func(s *stdioDirect) { d.Store(s) }})
				outW.Close()
				done <- err
			}()
			client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
				if err != nil || res.IsError {
					t.Fatalf("CallTool: %v %+v", err, res)
				}
				if got, _ := json.Marshal(res.StructuredContent); string(got) != `{"text":"hi"}` {
					t.Errorf("structured content %s, want the input", got)
				}
			}
			cs.Close()
			inW.Close()
			<-done
			if got := d.Load().served.Load(); got != 3 {
				t.Errorf("the direct path took %d calls, want 3", got)
			}
		})
	}
}

// TestAppendTextResult checks that a result of text alone is written as
// the reflective encoding writes it, in each shape, and that anything
// else is left to that encoding.
func TestAppendTextResult(t *testing.T) {
	impl := &mcp.Implementation{Name: "modhost <dev>", Version: "devel", Title: "Mod & host"}
	info, err := json.Marshal(impl)
	if err != nil {
		t.Fatal(err)
	}
	text := func(ss ...string) []mcp.Content {
		var cs []mcp.Content
		for _, s := range ss {
			cs = append(cs, &mcp.TextContent{Text: s})
		}
		return cs
	}
	written := []*mcp.CallToolResult{
		{Content: text(`{"message":"hi"}`)},
		{Content: text("a <b> & \"c\"\n", "é\u2028\xff", "")},
		{Content: text("no luck"), IsError: true},
		{Content: []mcp.Content{}},
		{},
	}
	left := []*mcp.CallToolResult{
		{Content: text("x"), Meta: mcp.Meta{"k": "v"}},
		{Content: text("x"), StructuredContent: map[string]any{"a": 1}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "x", Annotations: &mcp.Annotations{Priority: 1}}}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "x", Meta: mcp.Meta{"k": "v"}}}},
		{Content: []mcp.Content{&mcp.ImageContent{Data: []byte("x"), MIMEType: "image/png"}}},
		{Content: text("x"), RequestState: "s"},
		{InputRequests: mcp.InputRequestMap{}},
	}
	for _, shape := range []resultShape{{}, {inputRequired: true}, {inputRequired: true, serverInfo: impl, serverInfoJSON: info}} {
		for _, res := range written {
			got, ok := shape.appendText(nil, res)
			want, err := shape.encode(res)
			if !ok || err != nil || string(got) != string(want) {
				t.Errorf("%+v: %+v: wrote %s (%v), want %s (%v)", shape, res, got, ok, want, err)
			}
			line := string(mcpwire.AppendResult(nil, json.RawMessage(`7`), want)) + "\n"
			if got := shape.response(json.RawMessage(`7`), res, nil); string(got) != line {
				t.Errorf("%+v: %+v: response %s, want %s", shape, res, got, line)
			}
		}
		for _, res := range left {
			if got, ok := shape.appendText(nil, res); ok {
				t.Errorf("%+v: %+v: wrote %s, want it left to encode", shape, res, got)
			}
		}
	}
	if got, ok := (resultShape{serverInfo: impl}).appendText(nil, &mcp.CallToolResult{}); ok {
		t.Errorf("without the server's encoding: wrote %s, want it left to encode", got)
	}
}

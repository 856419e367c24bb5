package mcpbridge_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// sessionClient posts to one handler in one session of 2025-11-25.
type sessionClient struct {
	t       *testing.T
	url     string
	session string
}

func newSessionClient(t *testing.T, h http.Handler, caps string) *sessionClient {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	c := &sessionClient{t: t, url: ts.URL}
	resp := c.post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"t","version":"1"}}}`, nil)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.session = resp.Header.Get("Mcp-Session-Id")
	if c.session == "" {
		t.Fatalf("initialize: %s, no session", resp.Status)
	}
	resp = c.post("2025-11-25", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	resp.Body.Close()
	return c
}

// post posts body with the protocol version header version ("" for none)
// and the headers extra.
func (c *sessionClient) post(version, body string, extra map[string]string) *http.Response {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	for k, v := range extra {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// streamID matches an event's stream id, random for each call.
var streamID = regexp.MustCompile(`(?m)^id: [A-Z2-7]+_`)

// answer is a response as compared: status, the headers that are not the
// date or the framing, and the body with its stream ids replaced.
func (c *sessionClient) answer(version, body string) string {
	c.t.Helper()
	resp := c.post(version, body, nil)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var b strings.Builder
	b.WriteString(resp.Status + "\n")
	for _, k := range []string{"Content-Type", "Cache-Control", "Connection", "Retry-After", "Mcp-Session-Id"} {
		b.WriteString(k + ": " + strings.Join(resp.Header.Values(k), ",") + "\n")
	}
	b.Write(streamID.ReplaceAll(data, []byte("id: STREAM_")))
	return b.String()
}

// TestSessionDirectCall: a plain tools/call of a session, which the HTTP
// handler runs itself, is answered byte for byte as the SDK's session
// answers it when its event stream starts before the call; answered
// before the stream starts, as the echo is, the answer is the SDK's
// message as a JSON response. One that may send the client more than its
// answer is left to the SDK.
func TestSessionDirectCall(t *testing.T) {
	t.Parallel()
	srv, err := mcpbridge.NewServer(loadHost(t, conformanceDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	direct, sdk, quick := srv.NewHTTPHandler(nil), srv.NewHTTPHandler(nil), srv.NewHTTPHandler(nil)
	t.Cleanup(direct.Close)
	t.Cleanup(sdk.Close)
	t.Cleanup(quick.Close)
	mcpbridge.SessionDirectOff(sdk)
	mcpbridge.SessionDirectHold(direct, -1)
	mcpbridge.SessionDirectHold(quick, time.Minute) // however slow the machine
	dc, sc, qc := newSessionClient(t, direct, `{}`), newSessionClient(t, sdk, `{}`), newSessionClient(t, quick, `{}`)
	call := func(id, tool, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	taken := int64(0)
	for _, tt := range []struct {
		version, body string
		direct        bool
	}{
		{"2025-11-25", call("2", "test_simple_text", `{}`), true},
		{"2025-11-25", call(`"a-string"`, "test_simple_text", `{}`), true},
		{"2025-11-25", call(`"a<b&c>é"`, "test_simple_text", `{}`), true},
		{"2025-11-25", call("3", "test_image_content", `{}`), true},
		{"2025-11-25", call("4", "test_multiple_content_types", `{}`), true},
		{"2025-11-25", call("5", "test_error_handling", `{}`), true},
		{"2025-11-25", call("6", "json_schema_2020_12_tool", `{"name":"Ada","contactMethod":"phone"}`), true},
		{"2025-11-25", call("7", "json_schema_2020_12_tool", `{"name":"Ada","phone":"1","email":"a@b"}`), true},
		{"2025-11-25", call("8", "test_sampling", `{"prompt":"hi"}`), true},
		{"2025-11-25", call("9", "test_elicitation", `{"message":"who?"}`), true},
		{"2025-11-25", call("10", "greet", `{"name":"Ada"}`), true},
		{"2025-06-18", call("11", "test_simple_text", `{}`), true},
		{"", call("12", "test_simple_text", `{}`), true},
		{"2025-11-25", call("13", "no_such_tool", `{}`), false},
		{"2025-11-25", call("9007199254740993", "test_simple_text", `{}`), false},
		{"2025-11-25", `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"test_simple_text","arguments":{},"_meta":{"progressToken":1}}}`, false},
		{"2025-11-25", `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"test_simple_text"}}`, true},
	} {
		got, want := dc.answer(tt.version, tt.body), sc.answer(tt.version, tt.body)
		if got != want {
			t.Errorf("%s %s:\ndirect: %q\nSDK:    %q", tt.version, tt.body, got, want)
		}
		if tt.direct {
			taken++
			// The SDK's answer event, as JSON.
			status, _, _ := strings.Cut(want, "\n")
			data := want[strings.LastIndex(want, "\ndata: ")+len("\ndata: "):]
			json := status + "\nContent-Type: application/json\nCache-Control: no-cache, no-transform\nConnection: \nRetry-After: \nMcp-Session-Id: \n" + strings.TrimSuffix(data, "\n\n")
			if got := qc.answer(tt.version, tt.body); got != json {
				t.Errorf("%s %s, answered before the stream starts:\ngot:  %q\nwant: %q", tt.version, tt.body, got, json)
			}
			if n := mcpbridge.SessionDirectServed(quick); n != taken {
				t.Errorf("%s: the direct path took %d quick calls, want %d", tt.body, n, taken)
			}
		}
		if n := mcpbridge.SessionDirectServed(direct); n != taken {
			t.Errorf("%s: the direct path took %d calls, want %d", tt.body, n, taken)
			taken = n
		}
	}
	if !strings.Contains(dc.answer("2025-11-25", call("20", "test_simple_text", `{}`)), "event: prime\nid: STREAM_0\nretry: 1000\ndata: \n\nevent: message\nid: STREAM_1\ndata: {") {
		t.Error("a direct answer is not a priming event and an answer")
	}
	if n := mcpbridge.SessionDirectServed(sdk); n != 0 {
		t.Errorf("the SDK-only handler took %d calls", n)
	}
}

// TestSessionDirectLeftToSDK: calls whose handler may ask the client or
// send it logs go through the SDK.
func TestSessionDirectLeftToSDK(t *testing.T) {
	t.Parallel()
	srv, err := mcpbridge.NewServer(loadHost(t, conformanceDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(nil)
	t.Cleanup(h.Close)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}`
	for _, caps := range []string{`{"elicitation":{}}`, `{"sampling":{}}`, `{"elicitation":{"url":{}}}`} {
		c := newSessionClient(t, h, caps)
		if a := c.answer("2025-11-25", call); !strings.Contains(a, `"result"`) {
			t.Errorf("capabilities %s: %s", caps, a)
		}
	}
	if n := mcpbridge.SessionDirectServed(h); n != 0 {
		t.Errorf("the direct path took %d calls of clients that can be asked", n)
	}
	c := newSessionClient(t, h, `{}`)
	resp := c.post("2025-11-25", `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"debug"}}`, nil)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if a := c.answer("2025-11-25", call); !strings.Contains(a, `"result"`) {
		t.Errorf("after setLevel: %s", a)
	}
	if n := mcpbridge.SessionDirectServed(h); n != 0 {
		t.Errorf("the direct path took a call of a session with a log level")
	}
	// Another user's session is the SDK's to refuse: without auth there
	// is none, so a header out of the plain is the check here.
	resp = c.post("2025-11-25", call, map[string]string{"Last-Event-ID": "x_0"})
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !bytes.Contains(data, []byte("Last-Event-ID")) {
		t.Errorf("POST with Last-Event-ID: got %s %s, want the SDK's 400", resp.Status, data)
	}
}

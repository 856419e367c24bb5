package mcpbridge

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/mcpwire"
)

// TestHTTPErrorsSmall: every error the HTTP handler answers is a JSON-RPC
// error, whatever refused the request (the handler, the tasks code or the
// SDK), and quotes at most limits.MaxEcho bytes of any value the client
// sent.
func TestHTTPErrorsSmall(t *testing.T) {
	t.Parallel()
	url := taskServer(t, newTaskBackend(), nil)
	big := strings.Repeat("x", 1<<20)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	request := func(method, params string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params + `}}`
	}
	for _, c := range []struct {
		name, version, method, mcpName, body string
		status, code                         int
	}{
		{"task id", "2026-07-28", "tasks/get", big, request("tasks/get", `"taskId":"`+big+`",`+meta), 200, -32602},
		{"tool name", "2026-07-28", "tools/call", big, request("tools/call", `"name":"`+big+`",`+meta), 400, -32602},
		{"method", "2026-07-28", big, "", request(big, meta), 404, -32601},
		{"method in a session", "", "", "", request(big, ""), 200, -32601},
		{"Mcp-Method header", "2026-07-28", big, "", request("tools/list", meta), 400, -32020},
		{"id", "2026-07-28", "tools/list", "", `{"jsonrpc":"2.0","id":"` + big + `","method":"tools/list","params":{` + meta + `}}`, 400, -32600},
		{"protocol version in _meta", "2026-07-28", "tools/list", "", request("tools/list", `"_meta":{"io.modelcontextprotocol/protocolVersion":"`+big+`"}`), 400, -32020},
		{"resource URI", "2026-07-28", "resources/read", big, request("resources/read", `"uri":"`+big+`",`+meta), 400, -32602},
		{"prompt name", "2026-07-28", "prompts/get", big, request("prompts/get", `"name":"`+big+`",`+meta), 400, -32602},
		{"protocol version header", big[:4000], "tools/list", "", request("tools/list", ""), 400, -32022},
		{"body over 4 MiB", "2026-07-28", "tools/list", "", request("tools/list", `"x":"`+strings.Repeat(big, 5)+`"`), 413, -32600},
	} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range map[string]string{"Mcp-Protocol-Version": c.version, "Mcp-Method": c.method, "Mcp-Name": c.mcpName} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		status, code, body := answerError(t, req)
		if status != c.status || code != c.code {
			t.Errorf("%s: got status %d, error %d, want %d and %d: %.300s", c.name, status, code, c.status, c.code, body)
		}
		checkEcho(t, c.name, body)
	}
}

// TestHTTPSessionErrorsSmall: in a session, the SDK's errors (as
// server-sent events, or in plain text) reach the client as JSON-RPC
// errors that echo little.
func TestHTTPSessionErrorsSmall(t *testing.T) {
	t.Parallel()
	url := taskServer(t, newTaskBackend(), nil)
	post := func(session, body string) *http.Request {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		return req
	}
	resp, err := http.DefaultClient.Do(post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body) // as a client reads its answer, before the session's next request
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatalf("initialize: got status %d and no session", resp.StatusCode)
	}
	resp, err = http.DefaultClient.Do(post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	big := strings.Repeat("y", 1<<20)
	status, code, body := answerError(t, post(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+big+`"}}`))
	if status != 200 || code != -32602 {
		t.Errorf("unknown tool: got status %d, error %d, want 200 and -32602: %.300s", status, code, body)
	}
	checkEcho(t, "unknown tool", body)
	// A session the server does not know: the SDK answers 404 in plain
	// text.
	status, code, body = answerError(t, post("no-such-session", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`))
	if status != 404 || code != mcpwire.CodeInvalidRequest {
		t.Errorf("unknown session: got status %d, error %d, want 404 and %d: %.300s", status, code, mcpwire.CodeInvalidRequest, body)
	}
}

// TestHTTPProtocolVersions: a request naming a protocol revision the
// server does not speak gets -32022 with the revisions it does, whatever
// the value, old or new, with a session or without.
func TestHTTPProtocolVersions(t *testing.T) {
	t.Parallel()
	url := taskServer(t, newTaskBackend(), nil)
	for _, c := range []struct{ version, session, httpMethod string }{
		{"2099-01-01", "", "POST"}, {"1999-01-01", "", "POST"}, {"1999-01-01", "some-session", "POST"},
		{"junk", "", "POST"}, {"2026-07-28x", "", "POST"}, {"1999-01-01", "some-session", "GET"},
	} {
		var body io.Reader
		if c.httpMethod == "POST" {
			body = strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}`)
		}
		req, _ := http.NewRequest(c.httpMethod, url, body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", c.version)
		if c.session != "" {
			req.Header.Set("Mcp-Session-Id", c.session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var out struct {
			ID    json.RawMessage
			Error struct {
				Code int
				Data struct {
					Supported []string
					Requested string
				}
			}
		}
		if err := json.Unmarshal(data, &out); err != nil || resp.StatusCode != 400 || out.Error.Code != -32022 {
			t.Errorf("%s %q: got status %d, %s, want 400 with error -32022", c.httpMethod, c.version, resp.StatusCode, data)
			continue
		}
		if d := out.Error.Data; len(d.Supported) == 0 || d.Supported[0] != "2026-07-28" || d.Requested != c.version {
			t.Errorf("%s %q: got data %+v, want the supported revisions, newest first, and the one requested", c.httpMethod, c.version, d)
		}
		if want := map[string]string{"POST": "5", "GET": "null"}[c.httpMethod]; string(out.ID) != want {
			t.Errorf("%s %q: got id %s, want %s", c.httpMethod, c.version, out.ID, want)
		}
	}
}

// answerError sends req and returns the HTTP status, the JSON-RPC error code
// of the answer (a JSON body, or the first server-sent event) and the
// answer.
func answerError(t *testing.T, req *http.Request) (status, code int, body []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ = io.ReadAll(resp.Body)
	data := body
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// The first event with data: a session's stream starts with a
		// priming event, whose data is empty.
		for line := range bytes.Lines(body) {
			if d, ok := bytes.CutPrefix(line, []byte("data: ")); ok && len(bytes.TrimSpace(d)) > 0 {
				data = d
				break
			}
		}
	} else if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("got Content-Type %q, want application/json: %.300s", ct, body)
	}
	var out struct {
		JSONRPC string
		Error   struct{ Code int }
	}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&out); err != nil || out.JSONRPC != "2.0" {
		t.Errorf("got %.300q, want a JSON-RPC response (%v)", body, err)
	}
	return resp.StatusCode, out.Error.Code, body
}

// checkEcho fails t if body repeats more than limits.MaxEcho bytes of a
// client's long value (a run of one letter).
func checkEcho(t *testing.T, name string, body []byte) {
	t.Helper()
	for _, c := range []string{"x", "y"} {
		if bytes.Contains(body, bytes.Repeat([]byte(c), limits.MaxEcho+1)) {
			t.Errorf("%s: the answer of %d bytes echoes more than %d bytes of the client's value: %.300s", name, len(body), limits.MaxEcho, body)
		}
	}
	if len(body) > 2*limits.MaxProblemBytes {
		t.Errorf("%s: got an answer of %d bytes, want at most %d", name, len(body), 2*limits.MaxProblemBytes)
	}
}

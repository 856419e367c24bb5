package mcpbridge

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/testenv"
)

// countCPU starts counting this process's CPU time (user and system: the
// client and the server alike); the function it returns reports it per
// op, a figure the machine's load moves less than the time per op.
func countCPU(b *testing.B) func() {
	start := testenv.ProcessCPU()
	return func() {
		b.ReportMetric(float64((testenv.ProcessCPU()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkTaskHTTP: a call of flash (it reports a status, which makes it
// a task, then ends) polled to completion over streamable HTTP, with the
// fake backend: what a task costs besides its mod's work. Compare with
// BenchmarkPlainHTTP.
func BenchmarkTaskHTTP(b *testing.B) {
	url := taskServer(b, newTaskBackend(), nil)
	polls := 0
	var callTime, pollTime time.Duration
	defer countCPU(b)()
	for b.Loop() {
		start := time.Now()
		res, e := post(b, url, "tools/call", "flash", map[string]any{"name": "flash", "arguments": map[string]any{}}, withTasks)
		if e != nil || res["resultType"] != "task" {
			b.Fatalf("got %v %v", res, e)
		}
		callTime += time.Since(start)
		id := res["taskId"].(string)
		for {
			polls++
			start := time.Now()
			res, e := post(b, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks)
			pollTime += time.Since(start)
			if e != nil {
				b.Fatal(e)
			}
			if res["status"] == "completed" {
				break
			}
		}
	}
	b.ReportMetric(float64(polls)/float64(b.N), "polls/op")
	b.ReportMetric(float64(callTime.Microseconds())/float64(b.N), "call-µs/op")
	b.ReportMetric(float64(pollTime.Microseconds())/float64(b.N), "poll-µs/op")
}

// BenchmarkPlainHTTP: a plain call, served by the direct path.
func BenchmarkPlainHTTP(b *testing.B) {
	url := taskServer(b, newTaskBackend(), nil)
	defer countCPU(b)()
	for b.Loop() {
		res, e := post(b, url, "tools/call", "plain", map[string]any{"name": "plain", "arguments": map[string]any{}}, withTasks)
		if e != nil || res["resultType"] != "complete" {
			b.Fatalf("got %v %v", res, e)
		}
	}
}

// BenchmarkTaskGetHTTP: tasks/get of a completed task, the poll of every
// task: what the handler costs a request besides its work. Compare with
// BenchmarkBarePOST.
func BenchmarkTaskGetHTTP(b *testing.B) {
	url := taskServer(b, newTaskBackend(), nil)
	res, e := post(b, url, "tools/call", "flash", map[string]any{"name": "flash", "arguments": map[string]any{}}, withTasks)
	if e != nil || res["resultType"] != "task" {
		b.Fatalf("got %v %v", res, e)
	}
	id := res["taskId"].(string)
	for res["status"] != "completed" {
		res, _ = post(b, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks)
	}
	defer countCPU(b)()
	for b.Loop() {
		res, e := post(b, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks)
		if e != nil || res["status"] != "completed" {
			b.Fatalf("got %v %v", res, e)
		}
	}
}

// BenchmarkBarePOST: the same request to a handler that answers a fixed
// JSON-RPC response: the floor of BenchmarkTaskGetHTTP.
func BenchmarkBarePOST(b *testing.B) {
	answer := []byte(`{"jsonrpc":"2.0","id":7,"result":{"status":"completed"}}`)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		w.Write(answer)
	}))
	b.Cleanup(ts.Close)
	defer countCPU(b)()
	for b.Loop() {
		res, e := post(b, ts.URL, "tasks/get", "x", map[string]any{"taskId": "x"}, withTasks)
		if e != nil || res["status"] != "completed" {
			b.Fatalf("got %v %v", res, e)
		}
	}
}

// BenchmarkHandler: the handler's own work for each request of a task and
// of a plain call, without the network: ServeHTTP of a prepared request
// into a recorder. The bare side answers a fixed response after reading
// the body: the floor of the others.
func BenchmarkHandler(b *testing.B) {
	srv, err := NewServer(newTaskBackend(), nil)
	if err != nil {
		b.Fatal(err)
	}
	h := srv.NewHTTPHandler(nil)
	b.Cleanup(h.Close)
	meta := `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"` + TasksExtension + `":{}}}}}}`
	request := func(method, name, params string) func() *http.Request {
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params + meta)
		return func() *http.Request {
			req := httptest.NewRequest("POST", "http://127.0.0.1"+HTTPPath, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", method)
			req.Header.Set("Mcp-Name", name)
			return req
		}
	}
	serve := func(b *testing.B, newReq func() *http.Request, want string) {
		defer countCPU(b)()
		for b.Loop() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, newReq())
			if !strings.Contains(w.Body.String(), want) {
				b.Fatalf("got %d %s, want %s", w.Code, w.Body, want)
			}
		}
	}
	call := request("tools/call", "flash", `"name":"flash","arguments":{}`)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, call())
	var created struct {
		Result struct{ TaskID, Status string }
	}
	if err := json.Unmarshal(w.Body.Bytes(), &created); err != nil || created.Result.TaskID == "" {
		b.Fatalf("got %s, want a task", w.Body)
	}
	get := request("tasks/get", created.Result.TaskID, `"taskId":"`+created.Result.TaskID+`"`)
	for done := false; !done; {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, get())
		done = strings.Contains(w.Body.String(), `"status":"completed"`)
	}
	b.Run("task-call", func(b *testing.B) { serve(b, call, `"resultType":"task"`) })
	b.Run("task-get", func(b *testing.B) { serve(b, get, `"status":"completed"`) })
	b.Run("plain-call", func(b *testing.B) {
		serve(b, request("tools/call", "plain", `"name":"plain","arguments":{}`), `"resultType":"complete"`)
	})
	// The same behind an OAuth resource server, with a token it verified
	// before (cached): what auth_vs_plain measures.
	b.Run("auth-plain-call", func(b *testing.B) {
		is := mcpauthtest.NewIssuer(b)
		resource := "http://127.0.0.1" + HTTPPath
		auth, err := mcpauth.New(b.Context(), &mcpauth.Options{Issuer: is.URL, Resource: resource})
		if err != nil {
			b.Fatal(err)
		}
		ah := srv.NewHTTPHandler(&HTTPOptions{Auth: auth})
		defer ah.Close()
		authz := "Bearer " + is.Sign(b, "rsa", is.Claims(resource, "", time.Now()))
		plain := request("tools/call", "plain", `"name":"plain","arguments":{}`)
		defer countCPU(b)()
		for b.Loop() {
			w := httptest.NewRecorder()
			req := plain()
			req.Header.Set("Authorization", authz)
			ah.ServeHTTP(w, req)
			if !strings.Contains(w.Body.String(), `"resultType":"complete"`) {
				b.Fatalf("got %d %s", w.Code, w.Body)
			}
		}
	})
	// A plain call in a session of 2025-11-25, from a client that can be
	// asked nothing: answered within the hold, so as a JSON response.
	session := func(body string) *http.Request {
		req := httptest.NewRequest("POST", "http://127.0.0.1"+HTTPPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		return req
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, session(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`))
	id := w.Header().Get("Mcp-Session-Id")
	inSession := func(body string) func() *http.Request {
		return func() *http.Request {
			req := session(body)
			req.Header.Set("Mcp-Session-Id", id)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			return req
		}
	}
	h.ServeHTTP(httptest.NewRecorder(), inSession(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)())
	b.Run("session-call", func(b *testing.B) {
		serve(b, inSession(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plain","arguments":{}}}`), `{"jsonrpc":"2.0","id":1,"result":`)
	})
	answer := []byte(`{"jsonrpc":"2.0","id":1,"result":{"status":"completed"}}`)
	bare := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		w.Write(answer)
	})
	b.Run("bare", func(b *testing.B) {
		for b.Loop() {
			w := httptest.NewRecorder()
			bare.ServeHTTP(w, get())
		}
	})
}

package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/taskstore"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// taskBackend serves three tools that support tasks: work reports a status,
// then waits for release or its cancellation; ask reports a status, then
// asks a form; quick answers at once. cancelled receives each cancelled
// call's input.
type taskBackend struct {
	fakeBackend
	release   chan struct{}
	cancelled chan string
}

func newTaskBackend() *taskBackend {
	b := &taskBackend{release: make(chan struct{}), cancelled: make(chan string, 8)}
	tool := func(name string, task manifest.TaskSupport) host.Tool {
		return host.Tool{Mod: "m", Tool: manifest.Tool{Name: name, Description: "Test tool. Call it in tests.", Kind: manifest.KindPlain,
			InputSchema: json.RawMessage(`{"type":"object"}`), Task: task}}
	}
	b.tools = []host.Tool{tool("work", manifest.TaskOptional), tool("ask", manifest.TaskOptional),
		tool("quick", manifest.TaskRequired), tool("plain", ""), tool("flash", manifest.TaskOptional),
		tool("flash_batched", manifest.TaskOptional)}
	b.call = func(ctx context.Context, req *host.CallRequest) *host.CallResult {
		status := func(text string) {
			req.OnActivity(host.ActivityEvent{Update: sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: text}})
		}
		switch req.Tool {
		case "work":
			status("working on " + string(req.Input))
			select {
			case <-b.release:
				return &host.CallResult{Status: host.StatusCompleted, Text: "worked"}
			case <-ctx.Done():
				b.cancelled <- string(req.Input)
				return &host.CallResult{Status: host.StatusCancelled, Error: "cancelled"}
			}
		case "flash":
			status("flashing")
			return &host.CallResult{Status: host.StatusCompleted, Text: "flashed"}
		case "flash_batched":
			// The status came with the outcome, as a mod's update does
			// when its handler ends soon after: OnActivity never sees it.
			return &host.CallResult{Status: host.StatusCompleted, Text: "flashed", Activity: sdk.ActivityState{Status: "flashing"}}
		case "ask":
			status("asking")
			if len(req.Answers) == 0 {
				return &host.CallResult{Status: host.StatusAsking, Questions: []host.Question{{Kind: host.AskForm, Key: "name",
					Params: json.RawMessage(`{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`)}}}
			}
			var a struct{ Content map[string]string }
			json.Unmarshal(req.Answers[0].Answer, &a)
			return &host.CallResult{Status: host.StatusCompleted, Text: "Hello, " + a.Content["name"]}
		}
		return &host.CallResult{Status: host.StatusCompleted, Text: "done at once"}
	}
	return b
}

// taskServer serves b over streamable HTTP, its tasks in store.
func taskServer(t testing.TB, b Backend, store taskstore.Store) string {
	t.Helper()
	srv, err := NewServer(b, &Options{TaskStore: store, TaskLease: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(nil)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.Close() })
	return ts.URL
}

var withTasks = map[string]any{"extensions": map[string]any{TasksExtension: map[string]any{}}}

// post sends one 2026-07-28 request and returns its result or error.
func post(t testing.TB, url, method, name string, params map[string]any, caps map[string]any) (result map[string]any, rpcErr map[string]any) {
	t.Helper()
	return postBy(t, http.DefaultClient, url, method, name, params, caps)
}

// postBy sends one 2026-07-28 request by client and returns its result or
// error.
func postBy(t testing.TB, client *http.Client, url, method, name string, params map[string]any, caps map[string]any) (result map[string]any, rpcErr map[string]any) {
	t.Helper()
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	data := buf.Bytes()
	if i := bytes.Index(data, []byte("data: ")); i >= 0 {
		data = data[i+len("data: "):]
	}
	var out struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&out); err != nil {
		t.Fatalf("%s: %q: %v", method, buf.Bytes(), err)
	}
	return out.Result, out.Error
}

func startWork(t *testing.T, url, label string) string {
	t.Helper()
	res, e := post(t, url, "tools/call", "work", map[string]any{"name": "work", "arguments": map[string]any{"label": label}}, withTasks)
	if e != nil || res["resultType"] != "task" || res["taskId"] == "" || res["status"] != "working" {
		t.Fatalf("tools/call work: got %v %v, want a working task", res, e)
	}
	if msg, _ := res["statusMessage"].(string); !strings.Contains(msg, label) {
		t.Errorf("statusMessage %q: want the call's status, naming %q", msg, label)
	}
	return res["taskId"].(string)
}

func pollUntilEnded(t *testing.T, url, id string) map[string]any {
	t.Helper()
	for {
		res, e := post(t, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks)
		if e != nil {
			t.Fatalf("tasks/get %s: %v", id, e)
		}
		switch res["status"] {
		case "completed", "failed", "cancelled":
			return res
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTaskCompletes(t *testing.T) {
	t.Parallel()
	b := newTaskBackend()
	url := taskServer(t, b, nil)
	id := startWork(t, url, "a")
	res, e := post(t, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks)
	if e != nil || res["status"] != "working" || res["result"] != nil {
		t.Fatalf("tasks/get while working: got %v %v", res, e)
	}
	close(b.release)
	res = pollUntilEnded(t, url, id)
	result, _ := json.Marshal(res["result"])
	if res["status"] != "completed" || !strings.Contains(string(result), "worked") {
		t.Fatalf("got %v, want completed with the tool's text", res)
	}
}

// TestTaskAfter: a call that reports nothing becomes a task once it has
// run for TaskAfter; the next call, ending at once, is answered plainly:
// the timer kept for calls does not fire early.
func TestTaskAfter(t *testing.T) {
	t.Parallel()
	b := newTaskBackend()
	plain := b.call
	b.call = func(ctx context.Context, req *host.CallRequest) *host.CallResult {
		if req.Tool == "quick" && string(req.Input) == `{"slow":true}` {
			<-b.release // no status: only the time makes it a task
			return &host.CallResult{Status: host.StatusCompleted, Text: "slow"}
		}
		return plain(ctx, req)
	}
	url := taskServer(t, b, nil)
	start := time.Now()
	res, e := post(t, url, "tools/call", "quick", map[string]any{"name": "quick", "arguments": map[string]any{"slow": true}}, withTasks)
	if e != nil || res["resultType"] != "task" || res["status"] != "working" {
		t.Fatalf("a quiet call past TaskAfter: got %v %v, want a working task", res, e)
	}
	if waited := time.Since(start); waited < TaskAfter {
		t.Fatalf("the call became a task after %v, before TaskAfter (%v)", waited, TaskAfter)
	}
	close(b.release)
	if res := pollUntilEnded(t, url, res["taskId"].(string)); res["status"] != "completed" {
		t.Fatalf("got %v, want completed", res)
	}
	for range 20 {
		res, e := post(t, url, "tools/call", "quick", map[string]any{"name": "quick", "arguments": map[string]any{}}, withTasks)
		if e != nil || res["resultType"] != "complete" {
			t.Fatalf("a call that ends at once: got %v %v, want its result", res, e)
		}
	}
}

func TestTaskCancelReachesTheHandler(t *testing.T) {
	t.Parallel()
	b := newTaskBackend()
	url := taskServer(t, b, nil)
	id := startWork(t, url, "b")
	res, e := post(t, url, "tasks/cancel", id, map[string]any{"taskId": id}, withTasks)
	if e != nil || len(res) != 1 || res["resultType"] != "complete" {
		t.Fatalf("tasks/cancel: got %v %v, want the empty ack", res, e)
	}
	if got := <-b.cancelled; !strings.Contains(got, `"b"`) {
		t.Fatalf("cancelled %s, want the call of b", got)
	}
	if res := pollUntilEnded(t, url, id); res["status"] != "cancelled" {
		t.Fatalf("got %v, want cancelled", res["status"])
	}
	// Cancelling an ended task is acknowledged the same way.
	if res, e := post(t, url, "tasks/cancel", id, map[string]any{"taskId": id}, withTasks); e != nil || res["resultType"] != "complete" {
		t.Fatalf("tasks/cancel of an ended task: got %v %v", res, e)
	}
}

func TestTaskAsks(t *testing.T) {
	t.Parallel()
	url := taskServer(t, newTaskBackend(), nil)
	res, e := post(t, url, "tools/call", "ask", map[string]any{"name": "ask", "arguments": map[string]any{}}, withTasks)
	if e != nil || res["resultType"] != "task" {
		t.Fatalf("tools/call ask: got %v %v", res, e)
	}
	id := res["taskId"].(string)
	for res["status"] != "input_required" {
		res, _ = post(t, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks)
	}
	reqs, _ := res["inputRequests"].(map[string]any)
	if _, ok := reqs["name"]; !ok || len(reqs) != 1 {
		t.Fatalf("inputRequests %v, want the one question, name", reqs)
	}
	ack, e := post(t, url, "tasks/update", id, map[string]any{"taskId": id,
		"inputResponses": map[string]any{"name": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}}}, withTasks)
	if e != nil || ack["resultType"] != "complete" {
		t.Fatalf("tasks/update: got %v %v", ack, e)
	}
	res = pollUntilEnded(t, url, id)
	result, _ := json.Marshal(res["result"])
	if res["status"] != "completed" || !strings.Contains(string(result), "Hello, Ada") {
		t.Fatalf("got %v, want completed with the answer", res)
	}
}

func TestTaskErrors(t *testing.T) {
	t.Parallel()
	url := taskServer(t, newTaskBackend(), nil)
	for _, tc := range []struct {
		method, name string
		params       map[string]any
		caps         map[string]any
		code         float64
	}{
		{"tasks/get", "nope", map[string]any{"taskId": "nope"}, withTasks, -32602},
		{"tasks/cancel", "nope", map[string]any{"taskId": "nope"}, withTasks, -32602},
		{"tasks/get", "x", map[string]any{"taskId": "x"}, map[string]any{}, -32021},
		{"tools/call", "quick", map[string]any{"name": "quick", "arguments": map[string]any{}}, map[string]any{}, -32021},
		{"tasks/list", "", map[string]any{}, withTasks, -32601},
	} {
		_, e := post(t, url, tc.method, tc.name, tc.params, tc.caps)
		if e == nil || e["code"] != tc.code {
			t.Errorf("%s %v: got error %v, want code %v", tc.method, tc.params, e, tc.code)
		}
	}
	// A tool that finishes before it reports anything answers at once.
	res, e := post(t, url, "tools/call", "quick", map[string]any{"name": "quick", "arguments": map[string]any{}}, withTasks)
	if e != nil || res["resultType"] != "complete" {
		t.Errorf("quick: got %v %v, want a plain result", res, e)
	}
	// A call that reports a status is a task, however soon it ends.
	res, e = post(t, url, "tools/call", "flash", map[string]any{"name": "flash", "arguments": map[string]any{}}, withTasks)
	if e != nil || res["resultType"] != "task" {
		t.Errorf("flash: got %v %v, want a task", res, e)
	} else if got := pollUntilEnded(t, url, res["taskId"].(string)); got["status"] != "completed" {
		t.Errorf("flash: got %v, want completed", got)
	}
	// So is one whose status came with its outcome.
	res, e = post(t, url, "tools/call", "flash_batched", map[string]any{"name": "flash_batched", "arguments": map[string]any{}}, withTasks)
	if e != nil || res["resultType"] != "task" || res["status"] != "completed" {
		t.Errorf("flash_batched: got %v %v, want a completed task", res, e)
	} else if got := pollUntilEnded(t, url, res["taskId"].(string)); got["status"] != "completed" {
		t.Errorf("flash_batched: got %v, want completed", got)
	}
	// Without the extension, a task-optional tool is a plain call.
	if _, e := post(t, url, "tools/call", "plain", map[string]any{"name": "plain", "arguments": map[string]any{}}, map[string]any{}); e != nil {
		t.Errorf("plain: %v", e)
	}
}

// TestTaskLeaseLapses: a working task whose replica stopped renewing its
// lease fails when read.
func TestTaskLeaseLapses(t *testing.T) {
	t.Parallel()
	store := taskstore.NewMemory()
	url := taskServer(t, newTaskBackend(), store)
	now := time.Now()
	store.Create(context.Background(), &taskstore.Task{ID: "orphan", Tool: "work", Status: taskstore.Working,
		CreatedAt: now, UpdatedAt: now, TTL: time.Hour, Owner: "gone", LeaseUntil: now.Add(-time.Millisecond)})
	res, e := post(t, url, "tasks/get", "orphan", map[string]any{"taskId": "orphan"}, withTasks)
	errObj, _ := res["error"].(map[string]any)
	if e != nil || res["status"] != "failed" || !strings.Contains(errObj["message"].(string), "replica") {
		t.Fatalf("got %v %v, want failed saying its replica stopped", res, e)
	}
}

// TestTaskAnswerHasLength: an answer of the tasks methods, even one of
// more than the 2 KB net/http buffers before it chunks, carries its
// Content-Length, which a proxy in front forwards at less cost.
func TestTaskAnswerHasLength(t *testing.T) {
	b := newTaskBackend()
	url := taskServer(t, b, nil)
	id := startWork(t, url, strings.Repeat("long ", 1000)) // its status message names the label
	defer close(b.release)
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 8, "method": "tasks/get", "params": map[string]any{"taskId": id,
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": withTasks}}})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tasks/get")
	req.Header.Set("Mcp-Name", id)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if len(data) < 4096 || resp.ContentLength != int64(len(data)) || len(resp.TransferEncoding) > 0 {
		t.Fatalf("tasks/get: got %d bytes, Content-Length %d, Transfer-Encoding %v; want more than 4 KB with their length, not chunked",
			len(data), resp.ContentLength, resp.TransferEncoding)
	}
}

package mcpbridge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// taskServerRunner serves b over streamable HTTP with its tasks in memory,
// and returns the URL and the server's task runner.
func taskServerRunner(t *testing.T, b Backend) (string, *taskRunner) {
	t.Helper()
	srv, err := NewServer(b, &Options{TaskLease: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(nil)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.Close() })
	return ts.URL, srv.tasks
}

// sseMessage is one JSON-RPC message of an event stream.
type sseMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// openListen posts subscriptions/listen for taskIds with caps, and returns
// the response and a reader of its messages.
func openListen(t *testing.T, url string, taskIDs []string, caps map[string]any) (*http.Response, func() sseMessage) {
	t.Helper()
	return openListenBy(t, http.DefaultClient, url, taskIDs, caps)
}

// openListenBy is openListen by client.
func openListenBy(t *testing.T, client *http.Client, url string, taskIDs []string, caps map[string]any) (*http.Response, func() sseMessage) {
	t.Helper()
	params := map[string]any{"notifications": map[string]any{"taskIds": taskIDs},
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps}}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen", "params": params})
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	next := func() sseMessage {
		t.Helper()
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var m sseMessage
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("event %q: %v", line, err)
			}
			return m
		}
		t.Fatalf("the listen stream ended: %v", sc.Err())
		return sseMessage{}
	}
	return resp, next
}

// checkListenAck checks that ack acknowledges the listen subID, agreeing
// to task alone.
func checkListenAck(t *testing.T, ack sseMessage, subID, task string) {
	t.Helper()
	var p struct {
		Notifications struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
		Meta map[string]any `json:"_meta"`
	}
	json.Unmarshal(ack.Params, &p)
	if ack.Method != "notifications/subscriptions/acknowledged" || len(p.Notifications.TaskIDs) != 1 ||
		p.Notifications.TaskIDs[0] != task || p.Meta["io.modelcontextprotocol/subscriptionId"] != subID {
		t.Fatalf("first message: got %s %s %s, want the acknowledgement of %s alone", ack.Method, ack.Params, ack.Error, task)
	}
}

// notifiedTask is what the test reads of notifications/tasks.
type notifiedTask struct {
	TaskID     string          `json:"taskId"`
	Status     string          `json:"status"`
	Result     json.RawMessage `json:"result"`
	ResultType string          `json:"resultType"`
	Meta       map[string]any  `json:"_meta"`
}

// TestTaskListen: a client that opens subscriptions/listen for a task gets
// its state, then its changes, as notifications/tasks, and the stream ends
// with the listen's result once the task ended.
func TestTaskListen(t *testing.T) {
	t.Parallel()
	b := newTaskBackend()
	url, _ := taskServerRunner(t, b)
	id := startWork(t, url, "l")
	resp, next := openListen(t, url, []string{id, "no-such-task"}, withTasks)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("listen: HTTP %d, %s; want 200 and an event stream", resp.StatusCode, ct)
	}
	checkListenAck(t, next(), "listen-1", id)
	read := func() notifiedTask {
		t.Helper()
		m := next()
		var n notifiedTask
		if m.Method != "notifications/tasks" || json.Unmarshal(m.Params, &n) != nil || n.TaskID != id ||
			n.Meta["io.modelcontextprotocol/subscriptionId"] != "listen-1" || n.ResultType != "" {
			t.Fatalf("got %s %s, want notifications/tasks of %s on subscription listen-1", m.Method, m.Params, id)
		}
		return n
	}
	if n := read(); n.Status != "working" {
		t.Fatalf("first notification: got status %s, want working", n.Status)
	}
	close(b.release)
	n := read()
	for n.Status == "working" {
		n = read()
	}
	if n.Status != "completed" || !strings.Contains(string(n.Result), "worked") {
		t.Fatalf("got %s with result %s, want completed with the tool's text", n.Status, n.Result)
	}
	end := next()
	if string(end.ID) != `"listen-1"` || !strings.Contains(string(end.Result), `"resultType":"complete"`) {
		t.Fatalf("after the last task ended: got %+v, want the listen's result", end)
	}
}

// TestTaskListenCancelled: a cancellation is notified.
func TestTaskListenCancelled(t *testing.T) {
	t.Parallel()
	b := newTaskBackend()
	url, _ := taskServerRunner(t, b)
	id := startWork(t, url, "c")
	_, next := openListen(t, url, []string{id}, withTasks)
	next() // the acknowledgement
	next() // working
	if _, e := post(t, url, "tasks/cancel", id, map[string]any{"taskId": id}, withTasks); e != nil {
		t.Fatal(e)
	}
	var n notifiedTask
	json.Unmarshal(next().Params, &n)
	if n.Status != "cancelled" {
		t.Fatalf("got %s, want cancelled", n.Status)
	}
}

// TestTaskListenNeedsTheExtension: asking for task notifications without
// declaring the tasks extension is refused with -32021.
func TestTaskListenNeedsTheExtension(t *testing.T) {
	t.Parallel()
	url, _ := taskServerRunner(t, newTaskBackend())
	resp, _ := openListen(t, url, []string{"x"}, map[string]any{})
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("HTTP %d, want 400", resp.StatusCode)
	}
	var body struct {
		Error struct {
			Code int             `json:"code"`
			Data json.RawMessage `json:"data"`
		} `json:"error"`
	}
	data, _ := readAll(resp)
	if json.Unmarshal(data, &body) != nil || body.Error.Code != -32021 || !strings.Contains(string(body.Error.Data), TasksExtension) {
		t.Fatalf("got %s, want -32021 naming %s", data, TasksExtension)
	}
}

func readAll(resp *http.Response) ([]byte, error) {
	var buf bytes.Buffer
	_, err := buf.ReadFrom(resp.Body)
	return buf.Bytes(), err
}

// TestTaskGetWaitsForTheEnd: a tasks/get of a working task that ends while
// the get waits answers with the outcome, not with "working".
func TestTaskGetWaitsForTheEnd(t *testing.T) {
	t.Parallel()
	b := newTaskBackend()
	url, tr := taskServerRunner(t, b)
	tr.hold = time.Hour // the task's end, not the hold, ends the wait
	id := startWork(t, url, "g")
	got := make(chan map[string]any, 1)
	go func() {
		res, _ := post(t, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks)
		got <- res
	}()
	for !tr.watched(id) { // the get waits
		time.Sleep(time.Millisecond)
	}
	close(b.release)
	res := <-got
	if res["status"] != "completed" {
		t.Fatalf("got %v, want completed", res)
	}
}

// watched reports whether some request waits on changes of task id.
func (tr *taskRunner) watched(id string) bool {
	tr.watchers.mu.Lock()
	defer tr.watchers.mu.Unlock()
	return len(tr.watchers.byID[id]) > 0
}

package mcpbridge

import (
	"encoding/json"
	"testing"
)

// listen sends a 2026-07-28 subscriptions/listen of taskIds, with
// the request id id, declaring caps.
func (p *stdioPeer) listen(id string, taskIDs []string, caps map[string]any) {
	p.t.Helper()
	params := map[string]any{"notifications": map[string]any{"taskIds": taskIDs},
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps}}
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": params})
	p.send(string(data))
}

// next returns the next message the server wrote.
func (p *stdioPeer) next() sseMessage {
	p.t.Helper()
	if !p.out.Scan() {
		p.t.Fatalf("the output ended: %v", p.out.Err())
	}
	var m sseMessage
	if err := json.Unmarshal(p.out.Bytes(), &m); err != nil {
		p.t.Fatalf("line %q: %v", p.out.Bytes(), err)
	}
	return m
}

// listenAcked reads the acknowledgement of the listen subID, which must
// agree to task alone, and the notification of task's state, which must
// be status.
func (p *stdioPeer) listenAcked(subID, task, status string) {
	p.t.Helper()
	checkListenAck(p.t, p.next(), subID, task)
	p.taskNotified(subID, task, status)
}

// taskNotified reads a notifications/tasks of task on the listen subID,
// which must say status.
func (p *stdioPeer) taskNotified(subID, task, status string) {
	p.t.Helper()
	m := p.next()
	var n notifiedTask
	if m.Method != "notifications/tasks" || json.Unmarshal(m.Params, &n) != nil || n.TaskID != task ||
		n.Status != status || n.Meta["io.modelcontextprotocol/subscriptionId"] != subID {
		p.t.Fatalf("got %s %s, want notifications/tasks of %s, %s, on subscription %s", m.Method, m.Params, task, status, subID)
	}
}

// listenEnded reads the response to the listen subID, which must be its
// result.
func (p *stdioPeer) listenEnded(subID string) {
	p.t.Helper()
	m := p.next()
	var res struct {
		ResultType string         `json:"resultType"`
		Meta       map[string]any `json:"_meta"`
	}
	if string(m.ID) != `"`+subID+`"` || json.Unmarshal(m.Result, &res) != nil || res.ResultType != "complete" ||
		res.Meta["io.modelcontextprotocol/subscriptionId"] != subID {
		p.t.Fatalf("got %s %s %s %s, want the result of listen %s", m.ID, m.Method, m.Result, m.Error, subID)
	}
}

// TestTaskListenOverStdio: over stdio, a subscriptions/listen of a task
// is acknowledged, notified of the task's state and then of its changes
// as lines among the others, and ends with its result once the task
// ended. A client that does not declare the extension is refused.
func TestTaskListenOverStdio(t *testing.T) {
	b := newTaskBackend()
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := newStdioPeer(t, srv)
	res, rpcErr := p.call(1, "tools/call", map[string]any{"name": "work", "arguments": "stdio"}, withTasks)
	if rpcErr != nil || res["resultType"] != "task" {
		t.Fatalf("tools/call work: got %v %v, want a task", res, rpcErr)
	}
	id := res["taskId"].(string)

	p.listen("bare", []string{id}, map[string]any{})
	if m := p.next(); string(m.ID) != `"bare"` || !json.Valid(m.Error) || jsonCode(m.Error) != -32021 {
		t.Fatalf("listen without the extension: got %s %s %s, want error -32021", m.ID, m.Result, m.Error)
	}

	p.listen("l", []string{id, "no-such-task"}, withTasks)
	p.listenAcked("l", id, "working")
	// Other requests are answered while the listen is open.
	if res, rpcErr := p.call(2, "tasks/get", map[string]any{"taskId": id}, withTasks); rpcErr != nil || res["status"] != "working" {
		t.Fatalf("tasks/get during the listen: got %v %v, want working", res, rpcErr)
	}
	close(b.release)
	p.taskNotified("l", id, "completed")
	p.listenEnded("l")
}

// TestTaskListenOverStdioCancelled: a listen the client cancels with
// notifications/cancelled stops, without a response or another
// notification.
func TestTaskListenOverStdioCancelled(t *testing.T) {
	b := newTaskBackend()
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := newStdioPeer(t, srv)
	res, _ := p.call(1, "tools/call", map[string]any{"name": "work", "arguments": "cancelled"}, withTasks)
	id, _ := res["taskId"].(string)
	p.listen("l", []string{id}, withTasks)
	p.listenAcked("l", id, "working")
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"l"}}`)
	// The cancellation is read before the next request.
	if _, rpcErr := p.call(2, "tasks/get", map[string]any{"taskId": id}, withTasks); rpcErr != nil {
		t.Fatalf("tasks/get: %v", rpcErr)
	}
	close(b.release)
	for i := 3; ; i++ {
		res, rpcErr := p.call(i, "tasks/get", map[string]any{"taskId": id}, withTasks)
		if rpcErr != nil {
			t.Fatalf("tasks/get: %v", rpcErr)
		}
		if res["status"] == "completed" {
			break
		}
		if i > 200 {
			t.Fatal("the task did not complete")
		}
	}
	p.in.Close()
	for p.out.Scan() {
		var m sseMessage
		json.Unmarshal(p.out.Bytes(), &m)
		if m.Method == "notifications/tasks" || string(m.ID) == `"l"` {
			t.Errorf("after the listen was cancelled: got %s", p.out.Bytes())
		}
	}
}

// TestTaskListenOverStdioInputEnds: a listen ends, with its result, when
// the client's input ends, though its task still works; the server then
// returns.
func TestTaskListenOverStdioInputEnds(t *testing.T) {
	b := newTaskBackend()
	defer close(b.release)
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := newStdioPeer(t, srv)
	res, _ := p.call(1, "tools/call", map[string]any{"name": "work", "arguments": "ends"}, withTasks)
	id, _ := res["taskId"].(string)
	p.listen("l", []string{id}, withTasks)
	p.listenAcked("l", id, "working")
	p.in.Close()
	p.listenEnded("l")
	if p.out.Scan() {
		t.Errorf("after the listen's result: got %s, want the end of the output", p.out.Bytes())
	}
	if err := <-p.done; err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
	p.done <- nil // for the cleanup
}

// jsonCode is the code of a JSON-RPC error.
func jsonCode(e json.RawMessage) int {
	var v struct {
		Code int `json:"code"`
	}
	json.Unmarshal(e, &v)
	return v.Code
}

package mcpbridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/taskstore"
)

// corePeer speaks to a server as a client of 2025-11-25 in one session.
type corePeer interface {
	// initialize opens the session with the client's capabilities (JSON)
	// and returns the initialize result.
	initialize(caps string) map[string]any
	// request sends a request and returns its result or error.
	request(method string, params any) (result, rpcErr map[string]any)
}

// httpCorePeer is a session of modhost mcp --http, posted by hand.
type httpCorePeer struct {
	t       *testing.T
	url     string
	session string
	mu      sync.Mutex
	next    int
}

func (p *httpCorePeer) post(body []byte) *http.Response {
	p.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, p.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if p.session != "" {
		req.Header.Set("Mcp-Session-Id", p.session)
		req.Header.Set("Mcp-Protocol-Version", coreTasksVersion)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Error(err)
		return nil
	}
	return resp
}

// answer reads the response of a POST: JSON, or the last data of an event
// stream.
func answer(t *testing.T, resp *http.Response) (result, rpcErr map[string]any) {
	t.Helper()
	if resp == nil {
		return nil, map[string]any{"message": "no response"}
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if i := bytes.LastIndex(data, []byte("data: {")); i >= 0 {
		data = data[i+len("data: "):]
	}
	var m struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(data), &m); err != nil {
		t.Errorf("response %q (%s): %v", data, resp.Status, err)
	}
	return m.Result, m.Error
}

func (p *httpCorePeer) initialize(caps string) map[string]any {
	p.t.Helper()
	resp := p.post([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"clientInfo":{"name":"t","version":"1"}}}`))
	p.session = resp.Header.Get("Mcp-Session-Id")
	res, rpcErr := answer(p.t, resp)
	if rpcErr != nil || p.session == "" {
		p.t.Fatalf("initialize: %v, session %q", rpcErr, p.session)
	}
	p.post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)).Body.Close()
	return res
}

func (p *httpCorePeer) request(method string, params any) (map[string]any, map[string]any) {
	p.mu.Lock()
	p.next++
	id := p.next
	p.mu.Unlock()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return answer(p.t, p.post(body))
}

// stdioCorePeer is a session over stdio: requests may be in flight
// together, and the server's requests are answered by answerer.
type stdioCorePeer struct {
	p        *stdioPeer
	mu       sync.Mutex
	next     int
	waiting  map[int]chan [2]map[string]any
	notified []map[string]any
	asked    []map[string]any // the server's requests
	answerer func(method string, params map[string]any) any
}

func newStdioCorePeer(t *testing.T, srv *Server, answerer func(string, map[string]any) any) *stdioCorePeer {
	c := &stdioCorePeer{p: newStdioPeer(t, srv), waiting: map[int]chan [2]map[string]any{}, answerer: answerer}
	go c.read()
	return c
}

func (c *stdioCorePeer) read() {
	for c.p.out.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params map[string]any  `json:"params"`
			Result map[string]any  `json:"result"`
			Error  map[string]any  `json:"error"`
		}
		if json.Unmarshal(c.p.out.Bytes(), &m) != nil {
			continue
		}
		c.mu.Lock()
		switch {
		case m.Method != "" && m.ID == nil:
			c.notified = append(c.notified, map[string]any{"method": m.Method, "params": m.Params})
		case m.Method != "":
			c.asked = append(c.asked, map[string]any{"method": m.Method, "params": m.Params})
			reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": c.answerer(m.Method, m.Params)})
			go io.WriteString(c.p.in, string(reply)+"\n")
		default:
			var id int
			json.Unmarshal(m.ID, &id)
			if ch := c.waiting[id]; ch != nil {
				ch <- [2]map[string]any{m.Result, m.Error}
				delete(c.waiting, id)
			}
		}
		c.mu.Unlock()
	}
}

func (c *stdioCorePeer) send(id int, method string, params any) chan [2]map[string]any {
	ch := make(chan [2]map[string]any, 1)
	c.mu.Lock()
	c.waiting[id] = ch
	c.mu.Unlock()
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	io.WriteString(c.p.in, string(data)+"\n")
	return ch
}

func (c *stdioCorePeer) initialize(caps string) map[string]any {
	var params map[string]any
	json.Unmarshal([]byte(`{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"t","version":"1"}}`), &params)
	got := <-c.send(0, "initialize", params)
	io.WriteString(c.p.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return got[0]
}

func (c *stdioCorePeer) request(method string, params any) (map[string]any, map[string]any) {
	c.mu.Lock()
	c.next++
	id := c.next
	c.mu.Unlock()
	select {
	case got := <-c.send(id, method, params):
		return got[0], got[1]
	case <-time.After(time.Minute):
		return nil, map[string]any{"message": "no response to " + method}
	}
}

// TestCoreTasks: a client of 2025-11-25, over HTTP and over stdio, is
// told the tasks capability and each tool's task support; it calls a tool
// as a task, follows it with tasks/get and tasks/result, lists its tasks
// and cancels one; a required tool called without a task, and a tool
// without task support called with one, are refused with -32601.
func TestCoreTasks(t *testing.T) {
	for _, transport := range []string{"http", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			b := newTaskBackend()
			srv, err := NewServer(b, &Options{TaskStore: taskstore.NewMemory()})
			if err != nil {
				t.Fatal(err)
			}
			var p corePeer
			var sp *stdioCorePeer
			if transport == "http" {
				h := srv.NewHTTPHandler(nil)
				ts := httptest.NewServer(h)
				t.Cleanup(func() { ts.Close(); h.Close() })
				p = &httpCorePeer{t: t, url: ts.URL + HTTPPath}
			} else {
				sp = newStdioCorePeer(t, srv, func(method string, params map[string]any) any {
					return map[string]any{"action": "accept", "content": map[string]any{"name": "Ann"}}
				})
				p = sp
			}
			init := p.initialize(`{"elicitation":{}}`)
			caps, _ := init["capabilities"].(map[string]any)
			if got := jsonText(caps["tasks"]); got != `{"cancel":{},"list":{},"requests":{"tools":{"call":{}}}}` {
				t.Errorf("capabilities.tasks: got %s, want list, cancel and tools/call", got)
			}

			res, rpcErr := p.request("tools/list", map[string]any{})
			got := taskSupports(t, []byte(jsonText(res)))
			want := map[string]string{"work": "optional", "ask": "optional", "quick": "required", "plain": "forbidden", "flash": "optional", "flash_batched": "optional"}
			if rpcErr != nil || jsonText(got) != jsonText(want) {
				t.Errorf("tools/list: got %v %v, want %v", got, rpcErr, want)
			}

			for _, c := range []struct {
				name string
				task any
			}{{"quick", nil}, {"plain", map[string]any{}}} {
				params := map[string]any{"name": c.name, "arguments": map[string]any{}}
				if c.task != nil {
					params["task"] = c.task
				}
				if _, rpcErr := p.request("tools/call", params); rpcErr == nil || rpcErr["code"] != float64(-32601) {
					t.Errorf("tools/call %s, task %v: got error %v, want -32601", c.name, c.task, rpcErr)
				}
			}
			// An optional tool without a task is a plain call.
			if res, rpcErr := p.request("tools/call", map[string]any{"name": "flash_batched", "arguments": map[string]any{}}); rpcErr != nil || !strings.Contains(jsonText(res), "flashed") || res["task"] != nil {
				t.Errorf("tools/call flash_batched without a task: got %v %v, want a plain result", res, rpcErr)
			}

			res, rpcErr = p.request("tools/call", map[string]any{"name": "work", "arguments": "one", "task": map[string]any{"ttl": 60000}})
			task, _ := res["task"].(map[string]any)
			if rpcErr != nil || task["status"] != "working" || task["ttl"] != float64(60000) || task["taskId"] == "" {
				t.Fatalf("tools/call work as a task: got %v %v, want a working task of ttl 60000", res, rpcErr)
			}
			id := task["taskId"].(string)
			if res, rpcErr := p.request("tasks/get", map[string]any{"taskId": id}); rpcErr != nil || res["status"] != "working" || res["taskId"] != id {
				t.Errorf("tasks/get: got %v %v, want working", res, rpcErr)
			}
			done := make(chan [2]map[string]any, 1)
			go func() {
				res, rpcErr := p.request("tasks/result", map[string]any{"taskId": id})
				done <- [2]map[string]any{res, rpcErr}
			}()
			close(b.release)
			r := <-done
			meta, _ := r[0]["_meta"].(map[string]any)
			related, _ := meta[relatedTaskKey].(map[string]any)
			if r[1] != nil || !strings.Contains(jsonText(r[0]["content"]), "worked") || related["taskId"] != id || r[0]["resultType"] != nil {
				t.Errorf("tasks/result: got %v %v, want the tool's result with the related task", r[0], r[1])
			}
			if res, _ := p.request("tasks/get", map[string]any{"taskId": id}); res["status"] != "completed" {
				t.Errorf("tasks/get after the result: got %v, want completed", res)
			}
			if _, rpcErr := p.request("tasks/cancel", map[string]any{"taskId": id}); rpcErr == nil || rpcErr["code"] != float64(-32602) {
				t.Errorf("tasks/cancel of a completed task: got %v, want -32602", rpcErr)
			}

			if sp != nil {
				// The task's questions are asked of the client, with the
				// related task, and the task goes on with its answers.
				res, _ := p.request("tools/call", map[string]any{"name": "ask", "arguments": map[string]any{}, "task": map[string]any{}})
				askID, _ := res["task"].(map[string]any)["taskId"].(string)
				res, rpcErr := p.request("tasks/result", map[string]any{"taskId": askID})
				if rpcErr != nil || !strings.Contains(jsonText(res["content"]), "Hello, Ann") {
					t.Errorf("tasks/result of ask: got %v %v, want Hello, Ann", res, rpcErr)
				}
				sp.mu.Lock()
				asked := jsonText(sp.asked)
				sp.mu.Unlock()
				if !strings.Contains(asked, `"method":"elicitation/create"`) || !strings.Contains(asked, `"`+relatedTaskKey+`":{"taskId":"`+askID+`"}`) {
					t.Errorf("the server's requests: got %s, want an elicitation of task %s", asked, askID)
				}
			}

			// A second work task, cancelled while it works.
			b.release = make(chan struct{})
			res, _ = p.request("tools/call", map[string]any{"name": "work", "arguments": "two", "task": map[string]any{}})
			second, _ := res["task"].(map[string]any)["taskId"].(string)
			res, rpcErr = p.request("tasks/cancel", map[string]any{"taskId": second})
			if rpcErr != nil || res["status"] != "cancelled" || res["taskId"] != second {
				t.Errorf("tasks/cancel: got %v %v, want the task cancelled", res, rpcErr)
			}
			if got := <-b.cancelled; got != `"two"` {
				t.Errorf("the cancelled run's input: got %s, want \"two\"", got)
			}
			if _, rpcErr := p.request("tasks/result", map[string]any{"taskId": second}); rpcErr == nil {
				t.Errorf("tasks/result of a cancelled task: got no error")
			}

			res, rpcErr = p.request("tasks/list", nil) // params are optional
			var ids []string
			for _, tk := range res["tasks"].([]any) {
				ids = append(ids, fmt.Sprint(tk.(map[string]any)["taskId"], " ", tk.(map[string]any)["status"]))
			}
			if rpcErr != nil || len(ids) < 2 || ids[0] != id+" completed" || ids[len(ids)-1] != second+" cancelled" {
				t.Errorf("tasks/list: got %v %v, want %s completed first and %s cancelled last", ids, rpcErr, id, second)
			}
			if _, rpcErr := p.request("tasks/get", map[string]any{"taskId": "nope"}); rpcErr == nil || rpcErr["code"] != float64(-32602) {
				t.Errorf("tasks/get of an unknown task: got %v, want -32602", rpcErr)
			}

			if sp != nil {
				// Status notifications for the tasks: the first one's
				// completion among them.
				deadline := time.Now().Add(10 * time.Second)
				for {
					sp.mu.Lock()
					heard := jsonText(sp.notified)
					found := false
					for _, n := range sp.notified {
						ps, _ := n["params"].(map[string]any)
						found = found || n["method"] == "notifications/tasks/status" && ps["taskId"] == id && ps["status"] == "completed"
					}
					sp.mu.Unlock()
					if found {
						break
					}
					if time.Now().After(deadline) {
						t.Errorf("notifications: got %s, want notifications/tasks/status of %s completed", heard, id)
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
}

package mcpbridge

import (
	"bufio"
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

	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
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
	client  *http.Client // nil: http.DefaultClient
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
	client := p.client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
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

// listen opens the session's event stream (GET) and answers each request
// of the server's on it with answerer, recording them in asked.
func (p *httpCorePeer) listen(answerer func(method string, params map[string]any) any, asked *[]map[string]any, mu *sync.Mutex) {
	req, _ := http.NewRequest(http.MethodGet, p.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", p.session)
	req.Header.Set("Mcp-Protocol-Version", coreTasksVersion)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Error(err)
		return
	}
	p.t.Cleanup(func() { resp.Body.Close() })
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params map[string]any  `json:"params"`
			}
			if json.Unmarshal([]byte(data), &m) != nil || m.Method == "" || m.ID == nil {
				continue
			}
			mu.Lock()
			*asked = append(*asked, map[string]any{"method": m.Method, "params": m.Params})
			mu.Unlock()
			reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": answerer(m.Method, m.Params)})
			if resp := p.post(reply); resp != nil {
				resp.Body.Close()
			}
		}
	}()
}

// stdioCorePeer is a session over stdio: requests may be in flight
// together, and the server's requests are answered by answerer.
type stdioCorePeer struct {
	p        *stdioPeer
	mu       sync.Mutex
	next     int
	waiting  map[int]chan [2]map[string]any
	notified []map[string]any
	heard    chan struct{}    // has a value once a notification came since the last read
	asked    []map[string]any // the server's requests
	answerer func(method string, params map[string]any) any
}

func newStdioCorePeer(t *testing.T, srv *Server, answerer func(string, map[string]any) any) *stdioCorePeer {
	c := &stdioCorePeer{p: newStdioPeer(t, srv), waiting: map[int]chan [2]map[string]any{}, answerer: answerer, heard: make(chan struct{}, 1)}
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
			select {
			case c.heard <- struct{}{}:
			default:
			}
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
// as a task, follows it with tasks/get and tasks/result, answers a task's
// question asked through the session (elicitation/create with the
// related task, on the event stream over HTTP), lists its tasks and
// cancels one; over stdio it hears notifications/tasks/status. A required
// tool called without a task, and a tool without task support called
// with one, are refused with -32601.
func TestCoreTasks(t *testing.T) {
	for _, transport := range []string{"http", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			b := newTaskBackend()
			srv, err := NewServer(b, &Options{TaskStore: taskstore.NewMemory()})
			if err != nil {
				t.Fatal(err)
			}
			answerer := func(method string, params map[string]any) any {
				return map[string]any{"action": "accept", "content": map[string]any{"name": "Ann"}}
			}
			// The client declares elicitation, and answers the server's
			// requests: on the session's event stream over HTTP.
			var p corePeer
			var sp *stdioCorePeer
			var init map[string]any
			var asked func() string // the server's requests, as JSON
			if transport == "http" {
				h := srv.NewHTTPHandler(nil)
				ts := httptest.NewServer(h)
				t.Cleanup(func() { ts.Close(); h.Close() })
				hp := &httpCorePeer{t: t, url: ts.URL + HTTPPath}
				init = hp.initialize(`{"elicitation":{}}`)
				var mu sync.Mutex
				var got []map[string]any
				hp.listen(answerer, &got, &mu)
				asked = func() string { mu.Lock(); defer mu.Unlock(); return jsonText(got) }
				p = hp
			} else {
				sp = newStdioCorePeer(t, srv, answerer)
				init = sp.initialize(`{"elicitation":{}}`)
				asked = func() string { sp.mu.Lock(); defer sp.mu.Unlock(); return jsonText(sp.asked) }
				p = sp
			}
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

			{
				// The task's questions are asked of the client, with the
				// related task, and the task goes on with its answers.
				res, _ := p.request("tools/call", map[string]any{"name": "ask", "arguments": map[string]any{}, "task": map[string]any{}})
				askID, _ := res["task"].(map[string]any)["taskId"].(string)
				res, rpcErr := p.request("tasks/result", map[string]any{"taskId": askID})
				if rpcErr != nil || !strings.Contains(jsonText(res["content"]), "Hello, Ann") {
					t.Errorf("tasks/result of ask: got %v %v, want Hello, Ann", res, rpcErr)
				}
				asked := asked()
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
				timeout := time.After(time.Minute)
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
					select {
					case <-sp.heard:
						continue
					case <-timeout:
						t.Errorf("notifications: got %s, want notifications/tasks/status of %s completed", heard, id)
					}
					break
				}
			}
		})
	}
}

// TestCoreTasksOwner: with authorization, a principal's tasks/list of
// 2025-11-25 lists its own tasks alone, those it made through the tasks
// extension included, and another principal reads its task as unknown.
func TestCoreTasksOwner(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	const resource = "https://mcp.example/mcp"
	b := newTaskBackend()
	defer close(b.release)
	url := authTaskServer(t, b, taskstore.NewMemory(), is, resource, nil)
	ada := clientOf(t, is, resource, "ada", "app-1")
	bob := clientOf(t, is, resource, "bob", "app-1")
	sessions := map[string]*httpCorePeer{}
	for name, c := range map[string]*http.Client{"ada": ada, "bob": bob} {
		sessions[name] = &httpCorePeer{t: t, url: url + HTTPPath, client: c}
		sessions[name].initialize(`{}`)
	}
	res, rpcErr := sessions["ada"].request("tools/call", map[string]any{"name": "work", "arguments": map[string]any{}, "task": map[string]any{}})
	core, _ := res["task"].(map[string]any)["taskId"].(string)
	if rpcErr != nil || core == "" {
		t.Fatalf("ada's tools/call as a task: got %v %v", res, rpcErr)
	}
	res, rpcErr = postBy(t, ada, url, "tools/call", "work", map[string]any{"name": "work", "arguments": map[string]any{}}, withTasks)
	ext, _ := res["taskId"].(string)
	if rpcErr != nil || ext == "" {
		t.Fatalf("ada's tools/call through the extension: got %v %v", res, rpcErr)
	}
	listed := func(who string) []string {
		res, rpcErr := sessions[who].request("tasks/list", map[string]any{})
		if rpcErr != nil {
			t.Fatalf("%s's tasks/list: %v", who, rpcErr)
		}
		var ids []string
		for _, tk := range res["tasks"].([]any) {
			ids = append(ids, tk.(map[string]any)["taskId"].(string))
		}
		return ids
	}
	if got := listed("ada"); len(got) != 2 || got[0] != core || got[1] != ext {
		t.Errorf("ada's tasks/list: got %v, want [%s %s]", got, core, ext)
	}
	if got := listed("bob"); len(got) != 0 {
		t.Errorf("bob's tasks/list: got %v, want none", got)
	}
	for _, method := range []string{"tasks/get", "tasks/cancel", "tasks/result"} {
		if _, rpcErr := sessions["bob"].request(method, map[string]any{"taskId": core}); rpcErr == nil || rpcErr["code"] != float64(-32602) {
			t.Errorf("bob's %s of ada's task: got %v, want -32602", method, rpcErr)
		}
	}
}

// TestMayServeCore: the check every tools/call of a 2025-11-25 session
// passes lets through only a call that may be a task.
func TestMayServeCore(t *testing.T) {
	srv, err := NewServer(newTaskBackend(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := srv.tasks
	for _, c := range []struct {
		method, params string
		want           bool
	}{
		{"tools/call", `{"name":"work","arguments":{}}`, false},
		{"tools/call", `{"name":"plain","arguments":{},"_meta":{"progressToken":1}}`, false},
		{"tools/call", `{"name":"quick","arguments":{}}`, true},
		{"tools/call", `{"name":"plain","arguments":{},"task":{}}`, true},
		{"tools/call", `{"name":"qu\u0069ck"}`, true},
		{"tasks/list", ``, true},
		{"tasks/get", `{"taskId":"x"}`, true},
		{"prompts/get", `{"name":"x"}`, false},
	} {
		if got := tr.mayServeCore(c.method, json.RawMessage(c.params)); got != c.want {
			t.Errorf("mayServeCore(%s, %s): got %v, want %v", c.method, c.params, got, c.want)
		}
	}
}

// TestMayServeCoreAllocs: the check costs a plain call no allocation.
func TestMayServeCoreAllocs(t *testing.T) {
	srv, err := NewServer(newTaskBackend(), nil)
	if err != nil {
		t.Fatal(err)
	}
	params := json.RawMessage(`{"name":"work","arguments":{"q":"x"}}`)
	if n := testing.AllocsPerRun(100, func() { srv.tasks.mayServeCore("tools/call", params) }); n != 0 {
		t.Errorf("mayServeCore of a plain call: %v allocations, want 0", n)
	}
}

package mcpbridge_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/haproxycfg"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/internal/taskstore"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/internal/testserver"
)

// replica is one modhost mcp --http a test started.
type replica struct {
	name string
	port int
	cmd  *exec.Cmd
}

// cluster is Redis, three replicas and HAProxy in front of them.
type cluster struct {
	redis    *testserver.Redis
	store    taskstore.Store
	replicas []*replica
	url      string // the balancer's /mcp
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	testserver.Need(t, "haproxy")
	c := &cluster{redis: testserver.StartRedis(t)}
	store, err := taskstore.Open(c.redis.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	c.store = store
	key := filepath.Join(t.TempDir(), "state.key")
	b := make([]byte, mcpbridge.StateKeySize)
	rand.Read(b)
	if err := os.WriteFile(key, b, 0o600); err != nil {
		t.Fatal(err)
	}
	fixture, err := filepath.Abs(filepath.Join("testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	var servers []string
	for i := range 3 {
		r := &replica{name: fmt.Sprintf("r%d", i+1), port: testserver.FreePort(t)}
		r.cmd = exec.Command(modhostBinary(t), "--mods", fixture, "--workspace", ws, "mcp",
			"--http", fmt.Sprintf("127.0.0.1:%d", r.port), "--store", c.redis.URL(), "--state-key-file", key,
			"--task-lease", "2s", "--drain", "5s")
		r.cmd.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
		direct := testenv.ServeURL(t, r.cmd, "serving MCP at ")
		// Build and start the fixture mod before the balancer sends calls.
		if res := rpc(t, direct, "tools/call", "greet", map[string]any{"name": "greet", "arguments": map[string]any{"name": "x"}}, nil); res.Error != nil {
			t.Fatalf("%s: warm-up call: %s", r.name, res.Error)
		}
		c.replicas = append(c.replicas, r)
		servers = append(servers, fmt.Sprintf("127.0.0.1:%d", r.port))
	}
	// The configuration of docs/deploy.md: /mcp balances round-robin with
	// no stickiness (MCP 2026-07-28 is stateless); /sticky/ keeps a
	// 2025-11-25 session on the replica that opened it. Each response
	// names the replica that served it in X-Served-By, for the test.
	h := testserver.StartHAProxy(t, haproxycfg.Config(&haproxycfg.Options{Bind: "127.0.0.1:{{PORT}}", Servers: servers, Checks: true, Sticky: true, ServedBy: true}))
	c.url = fmt.Sprintf("http://127.0.0.1:%d/mcp", h.Port)
	// Wait until the balancer sees every replica ready.
	seen := map[string]bool{}
	for len(seen) < 3 {
		res := rpc(t, c.url, "tools/call", "greet", map[string]any{"name": "greet", "arguments": map[string]any{"name": "x"}}, nil)
		if res.Error == nil {
			seen[res.servedBy] = true
		}
	}
	return c
}

// rpcResult is a JSON-RPC response, and who served it.
type rpcResult struct {
	Result   json.RawMessage `json:"result"`
	Error    json.RawMessage `json:"error"`
	servedBy string
}

var tasksCaps = map[string]any{"extensions": map[string]any{mcpbridge.TasksExtension: map[string]any{}}, "elicitation": map[string]any{}}

// rpc posts one 2026-07-28 request to url; name is its Mcp-Name header.
func rpc(t *testing.T, url, method, name string, params map[string]any, caps map[string]any) rpcResult {
	t.Helper()
	if caps == nil {
		caps = map[string]any{}
	}
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": caps}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, name, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if i := bytes.Index(data, []byte("data: ")); i >= 0 && resp.Header.Get("Content-Type") == "text/event-stream" {
		data = data[i+len("data: "):]
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			data = data[:j]
		}
	}
	var out rpcResult
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%s %s: HTTP %d, body %q", method, name, resp.StatusCode, data)
	}
	out.servedBy = resp.Header.Get("X-Served-By")
	return out
}

// task is what the test reads of a task result.
type task struct {
	ResultType    string          `json:"resultType"`
	TaskID        string          `json:"taskId"`
	Status        string          `json:"status"`
	StatusMessage string          `json:"statusMessage"`
	Result        json.RawMessage `json:"result"`
	Error         *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (c *cluster) startTask(t *testing.T, seconds int, label string) (task, string) {
	t.Helper()
	return startTaskAt(t, c.url, "slow_compute", seconds, label)
}

// startTaskAt starts a task of tool (slow_compute or rerun_compute) at url.
func startTaskAt(t *testing.T, url, tool string, seconds int, label string) (task, string) {
	t.Helper()
	res := rpc(t, url, "tools/call", tool, map[string]any{"name": tool,
		"arguments": map[string]any{"seconds": seconds, "label": label}}, tasksCaps)
	var tk task
	if res.Error != nil || json.Unmarshal(res.Result, &tk) != nil || tk.ResultType != "task" {
		t.Fatalf("slow_compute %s: got result %s, error %s; want a task", label, res.Result, res.Error)
	}
	return tk, res.servedBy
}

func (c *cluster) getTask(t *testing.T, id string) (task, string) {
	t.Helper()
	res := rpc(t, c.url, "tasks/get", id, map[string]any{"taskId": id}, tasksCaps)
	var tk task
	if res.Error != nil || json.Unmarshal(res.Result, &tk) != nil {
		t.Fatalf("tasks/get %s: error %s", id, res.Error)
	}
	return tk, res.servedBy
}

// waitEnded polls task id until it ends.
func (c *cluster) waitEnded(t *testing.T, id string) task {
	t.Helper()
	for {
		tk, _ := c.getTask(t, id)
		switch tk.Status {
		case "completed", "failed", "cancelled":
			return tk
		}
		time.Sleep(100 * time.Millisecond) // a poll interval: what a client does
	}
}

// listenTask opens subscriptions/listen for task id at url and returns
// the statuses its notifications/tasks carried until the stream ended.
func listenTask(t *testing.T, url, id string) []string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": map[string]any{
		"notifications": map[string]any{"taskIds": []string{id}},
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": tasksCaps}}})
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body) // the stream ends once the task ended
	var statuses []string
	acked := false
	for _, line := range strings.Split(string(data), "\n") {
		line, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var m struct {
			Method string `json:"method"`
			Params struct {
				TaskID        string                     `json:"taskId"`
				Status        string                     `json:"status"`
				Notifications struct{ TaskIDs []string } `json:"notifications"`
			} `json:"params"`
		}
		json.Unmarshal([]byte(line), &m)
		switch m.Method {
		case "notifications/subscriptions/acknowledged":
			acked = len(m.Params.Notifications.TaskIDs) == 1 && m.Params.Notifications.TaskIDs[0] == id
		case "notifications/tasks":
			if m.Params.TaskID == id {
				statuses = append(statuses, m.Params.Status)
			}
		}
	}
	if !acked {
		t.Fatalf("listen for %s: no acknowledgement of it in %s", id, data)
	}
	return statuses
}

// TestReplicas runs three replicas sharing a Redis store behind HAProxy,
// round-robin with no stickiness, and checks that any replica answers for
// any other: questions, tasks and cancellations, a replica killed, Redis
// restarted, and 2025-11-25 sessions kept on their replica by the sticky
// frontend.
func TestReplicas(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts Redis, HAProxy and three replicas")
	}
	c := startCluster(t)

	t.Run("questions answered on another replica", func(t *testing.T) {
		first := rpc(t, c.url, "tools/call", "test_input_required_result_elicitation",
			map[string]any{"name": "test_input_required_result_elicitation", "arguments": map[string]any{}}, tasksCaps)
		var ir struct {
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  string                     `json:"requestState"`
		}
		if err := json.Unmarshal(first.Result, &ir); err != nil || len(ir.InputRequests) == 0 {
			t.Fatalf("first round: got %s %s, want input requests", first.Result, first.Error)
		}
		responses := map[string]any{}
		for k := range ir.InputRequests {
			responses[k] = map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}
		}
		second := rpc(t, c.url, "tools/call", "test_input_required_result_elicitation",
			map[string]any{"name": "test_input_required_result_elicitation", "arguments": map[string]any{},
				"inputResponses": responses, "requestState": ir.RequestState}, tasksCaps)
		if second.servedBy == first.servedBy {
			t.Fatalf("both rounds served by %s: the balancer should have sent them to two replicas", first.servedBy)
		}
		if second.Error != nil || !strings.Contains(string(second.Result), "Ada") {
			t.Fatalf("second round on %s: got %s %s, want a greeting of Ada", second.servedBy, second.Result, second.Error)
		}
	})

	t.Run("50 tasks created, polled and cancelled on different replicas", func(t *testing.T) {
		type started struct {
			id, by string
			cancel bool
		}
		var tasks []started
		for i := range 50 {
			cancel := i%2 == 1
			seconds := 1
			if cancel {
				seconds = 60
			}
			tk, by := c.startTask(t, seconds, fmt.Sprintf("t%d", i))
			tasks = append(tasks, started{tk.TaskID, by, cancel})
		}
		crossed := 0
		for _, s := range tasks {
			if !s.cancel {
				continue
			}
			res := rpc(t, c.url, "tasks/cancel", s.id, map[string]any{"taskId": s.id}, tasksCaps)
			if res.Error != nil || string(res.Result) != `{"resultType":"complete"}` {
				t.Fatalf("tasks/cancel %s: got %s %s", s.id, res.Result, res.Error)
			}
			if res.servedBy != s.by {
				crossed++
			}
		}
		if crossed == 0 {
			t.Errorf("no cancellation reached a replica other than the one running its task")
		}
		for _, s := range tasks {
			tk := c.waitEnded(t, s.id)
			want := "completed"
			if s.cancel {
				want = "cancelled"
			}
			if tk.Status != want {
				t.Errorf("task %s started on %s: got %s (%s), want %s", s.id, s.by, tk.Status, tk.StatusMessage, want)
			}
			st, err := c.store.Get(context.Background(), s.id)
			if err != nil || st.Runs != 1 {
				t.Errorf("task %s: ran %d times (%v), want once", s.id, st.Runs, err)
			}
		}
	})

	t.Run("status notifications from another replica", func(t *testing.T) {
		runner := fmt.Sprintf("http://127.0.0.1:%d/mcp", c.replicas[0].port)
		listener := fmt.Sprintf("http://127.0.0.1:%d/mcp", c.replicas[1].port)
		tk, _ := startTaskAt(t, runner, "slow_compute", 1, "followed")
		statuses := listenTask(t, listener, tk.TaskID)
		if len(statuses) < 2 || statuses[0] != "working" || statuses[len(statuses)-1] != "completed" {
			t.Fatalf("notifications/tasks on %s of a task on %s: got %v, want working, then completed", c.replicas[1].name, c.replicas[0].name, statuses)
		}
	})

	t.Run("2025-11-25 sessions stick to their replica", func(t *testing.T) {
		sticky := strings.TrimSuffix(c.url, "/mcp") + "/sticky/mcp"
		cl := mcp.NewClient(&mcp.Implementation{Name: "sticky", Version: "1"}, nil)
		cs, err := cl.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: sticky}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		for i := range 6 {
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": fmt.Sprint(i)}})
			if err != nil || res.IsError {
				t.Fatalf("call %d in a session through the sticky frontend: %v %v", i, err, res)
			}
		}
	})

	t.Run("a replica killed while it runs tasks", func(t *testing.T) {
		victim := c.replicas[2]
		type started struct{ id, by string }
		var tasks []started
		for i := range 9 {
			tk, by := c.startTask(t, 3, fmt.Sprintf("k%d", i))
			tasks = append(tasks, started{tk.TaskID, by})
		}
		killed := time.Now()
		victim.cmd.Process.Signal(syscall.SIGKILL)
		victim.cmd.Wait()
		var onVictim int
		for _, s := range tasks {
			tk := c.waitEnded(t, s.id)
			if s.by == victim.name {
				onVictim++
				if tk.Status != "failed" || tk.Error == nil || !strings.Contains(tk.Error.Message, "replica") {
					t.Errorf("task %s on the killed replica: got %s %+v, want failed saying its replica stopped", s.id, tk.Status, tk.Error)
				}
			} else if tk.Status != "completed" {
				t.Errorf("task %s on %s: got %s (%s), want completed", s.id, s.by, tk.Status, tk.StatusMessage)
			}
		}
		if onVictim == 0 {
			t.Fatalf("no task ran on %s", victim.name)
		}
		t.Logf("%d tasks of the killed replica ended failed %s after the kill (lease 2s)", onVictim, time.Since(killed).Round(100*time.Millisecond))
	})

	t.Run("Redis restarted", func(t *testing.T) {
		c.redis.Stop()
		if res := rpc(t, c.url, "tools/call", "greet", map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada"}}, tasksCaps); res.Error != nil {
			t.Fatalf("plain call with Redis down: %s", res.Error)
		}
		res := rpc(t, c.url, "tools/call", "slow_compute", map[string]any{"name": "slow_compute",
			"arguments": map[string]any{"seconds": 1, "label": "down"}}, tasksCaps)
		if res.Error == nil || !strings.Contains(string(res.Error), "task") {
			t.Fatalf("task call with Redis down: got %s %s, want an error about the task store", res.Result, res.Error)
		}
		c.redis.Start()
		for c.store.Ping(context.Background()) != nil {
			time.Sleep(50 * time.Millisecond)
		}
		tk, _ := c.startTask(t, 1, "up again")
		if got := c.waitEnded(t, tk.TaskID); got.Status != "completed" {
			t.Fatalf("task after Redis restarted: got %s", got.Status)
		}
	})

	t.Run("SIGTERM drains a replica", func(t *testing.T) {
		r := c.replicas[1]
		direct := fmt.Sprintf("http://127.0.0.1:%d", r.port)
		short, _ := startTaskAt(t, direct+"/mcp", "slow_compute", 2, "short")
		long, _ := startTaskAt(t, direct+"/mcp", "slow_compute", 60, "long")
		again, _ := startTaskAt(t, direct+"/mcp", "rerun_compute", 7, "again")
		r.cmd.Process.Signal(syscall.SIGTERM)
		for {
			resp, err := http.Get(direct + "/readyz")
			if err != nil {
				t.Fatalf("readyz while draining: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusServiceUnavailable {
				break
			}
		}
		resp, err := http.Post(direct+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("a request while draining: got %v %v, want 503", resp.Status, err)
		}
		resp.Body.Close()
		stopped := time.Now()
		r.cmd.Wait()
		t.Logf("the replica exited %s after SIGTERM (drain 5s)", time.Since(stopped).Round(100*time.Millisecond))
		if got := c.waitEnded(t, short.TaskID); got.Status != "completed" {
			t.Errorf("a task that finished within the drain: got %s (%s), want completed", got.Status, got.StatusMessage)
		}
		if got := c.waitEnded(t, long.TaskID); got.Status != "failed" || got.Error == nil || !strings.Contains(got.Error.Message, "replica") {
			t.Errorf("a task that outlived the drain: got %s %+v, want failed saying its replica stopped", got.Status, got.Error)
		}
		if got := c.waitEnded(t, again.TaskID); got.Status != "completed" {
			t.Errorf("an idempotent task that outlived the drain: got %s (%s), want completed by another replica", got.Status, got.StatusMessage)
		}
		if st, err := c.store.Get(context.Background(), again.TaskID); err != nil || st.Runs != 2 {
			t.Errorf("the idempotent task ran %d times (%v), want twice", st.Runs, err)
		}
	})

	t.Run("TypeScript v2 client, 500 calls", func(t *testing.T) {
		dir := nodeTools(t)
		cmd := nodeCommand(t, dir, filepath.Join("testdata", "tsreplicas.mjs"), dir, c.url, "500")
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tsreplicas: %v\nstdout: %s\nstderr: %s", err, out, errOut.Bytes())
		}
		var report struct {
			Calls, Asked, Failed int
			Protocol             string
		}
		if err := json.Unmarshal(out, &report); err != nil {
			t.Fatalf("tsreplicas output %s: %v", out, err)
		}
		if report.Calls != 500 || report.Failed != 0 || report.Asked == 0 || report.Protocol != "2026-07-28" {
			t.Fatalf("got %+v; want 500 calls at 2026-07-28, questions among them, none failed", report)
		}
	})
}

package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/taskstore"
)

// taskSupports returns each listed tool's execution.taskSupport ("" when
// it has none) from a tools/list result.
func taskSupports(t *testing.T, result []byte) map[string]string {
	t.Helper()
	var r struct {
		Tools []struct {
			Name      string `json:"name"`
			Execution *struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		t.Fatalf("tools/list result %s: %v", result, err)
	}
	got := map[string]string{}
	for _, tool := range r.Tools {
		if tool.Execution != nil {
			got[tool.Name] = tool.Execution.TaskSupport
		} else {
			got[tool.Name] = ""
		}
	}
	return got
}

// TestTaskSupportListedOverHTTP: revision 2026-07-28 lists no execution
// member (its tasks extension defines none), whether or not the client
// declares the extension.
func TestTaskSupportListedOverHTTP(t *testing.T) {
	url := taskServer(t, newTaskBackend(), taskstore.NewMemory())
	for _, caps := range []map[string]any{withTasks, {}} {
		res, rpcErr := post(t, url, "tools/list", "", map[string]any{}, caps)
		if rpcErr != nil {
			t.Fatalf("tools/list: %v", rpcErr)
		}
		if res["resultType"] != "complete" {
			t.Errorf("resultType: got %v, want complete", res["resultType"])
		}
		got := taskSupports(t, []byte(jsonText(res)))
		if len(got) != 6 {
			t.Errorf("caps %v: got tools %v, want 6", caps, got)
		}
		for name, support := range got {
			if support != "" {
				t.Errorf("caps %v: tool %s: got taskSupport %q, want no execution member", caps, name, support)
			}
		}
	}
}

// TestTaskSupportListedOverStdio: a session of 2025-11-25 is told each
// tool's task support, as it gets that revision's tasks (tasks_core.go);
// a session of an earlier revision, which has no tasks, is told forbidden
// for every tool.
func TestTaskSupportListedOverStdio(t *testing.T) {
	srv, err := NewServer(newTaskBackend(), nil)
	if err != nil {
		t.Fatal(err)
	}
	honest := map[string]string{"work": "optional", "ask": "optional", "quick": "required", "plain": "forbidden", "flash": "optional", "flash_batched": "optional"}
	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		in := strings.Join([]string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`,
		}, "\n")
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if err := srv.ServeStdio(ctx, strings.NewReader(in), &out, nil); err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
		cancel()
		var got map[string]string
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && string(m.ID) == "2" {
				got = taskSupports(t, m.Result)
			}
		}
		if len(got) != len(honest) {
			t.Fatalf("%s: got tools %v in:\n%s", version, got, out.String())
		}
		for name, support := range got {
			want := honest[name]
			if version != coreTasksVersion {
				want = "forbidden"
			}
			if support != want {
				t.Errorf("%s: tool %s: got taskSupport %q, want %q", version, name, support, want)
			}
		}
	}
}

// stdioPeer serves srv over stdio pipes: send writes a line, and recv
// returns the response to id, skipping other messages.
type stdioPeer struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func newStdioPeer(t *testing.T, srv *Server) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	p := &stdioPeer{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	p.out.Buffer(nil, 1<<20)
	go func() { p.done <- srv.ServeStdio(ctx, inR, outW, nil); outW.Close() }()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		if err := <-p.done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
		cancel()
	})
	return p
}

func (p *stdioPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// call sends a 2026-07-28 request with caps and returns its result or
// error.
func (p *stdioPeer) call(id int, method string, params map[string]any, caps map[string]any) (result, rpcErr map[string]any) {
	p.t.Helper()
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps}
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	p.send(string(data))
	return p.recv(id)
}

func (p *stdioPeer) recv(id int) (result, rpcErr map[string]any) {
	p.t.Helper()
	for p.out.Scan() {
		var m struct {
			ID     *int           `json:"id"`
			Result map[string]any `json:"result"`
			Error  map[string]any `json:"error"`
		}
		if json.Unmarshal(p.out.Bytes(), &m) == nil && m.ID != nil && *m.ID == id {
			return m.Result, m.Error
		}
	}
	p.t.Fatalf("no response to %d: %v", id, p.out.Err())
	return nil, nil
}

// TestTasksOverStdio: a client of 2026-07-28 over stdio that declares the
// tasks extension gets a task, polls it and gets its result; one that does
// not is refused a tool that requires a task; a session of 2025-11-25 is
// refused it without a task of its own, one of 2025-06-18 calls it as a
// plain call.
func TestTasksOverStdio(t *testing.T) {
	b := newTaskBackend()
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := newStdioPeer(t, srv)
	res, rpcErr := p.call(1, "tools/call", map[string]any{"name": "work", "arguments": "stdio"}, withTasks)
	if rpcErr != nil || res["resultType"] != "task" || res["status"] != "working" {
		t.Fatalf("tools/call work: got %v %v, want a working task", res, rpcErr)
	}
	id := res["taskId"].(string)
	res, rpcErr = p.call(2, "tasks/get", map[string]any{"taskId": id}, withTasks)
	if rpcErr != nil || res["status"] != "working" || res["statusMessage"] != `working on "stdio"` {
		t.Errorf("tasks/get: got %v %v, want working on \"stdio\"", res, rpcErr)
	}
	close(b.release)
	for i := 3; res["status"] == "working"; i++ {
		res, rpcErr = p.call(i, "tasks/get", map[string]any{"taskId": id}, withTasks)
		if rpcErr != nil {
			t.Fatalf("tasks/get: %v", rpcErr)
		}
	}
	result, _ := res["result"].(map[string]any)
	if res["status"] != "completed" || result == nil || !strings.Contains(jsonText(result["content"]), "worked") {
		t.Errorf("tasks/get: got %v, want completed with worked", res)
	}
	if _, rpcErr = p.call(100, "tools/call", map[string]any{"name": "quick", "arguments": map[string]any{}}, map[string]any{}); rpcErr == nil || rpcErr["code"] != float64(-32021) {
		t.Errorf("tools/call quick without the extension: got %v, want -32021", rpcErr)
	}
	if _, rpcErr = p.call(101, "tasks/get", map[string]any{"taskId": id}, map[string]any{}); rpcErr == nil || rpcErr["code"] != float64(-32021) {
		t.Errorf("tasks/get without the extension: got %v, want -32021", rpcErr)
	}

	res, rpcErr = p.call(102, "tools/list", map[string]any{}, withTasks)
	if got := taskSupports(t, []byte(jsonText(res))); rpcErr != nil || len(got) != 6 || got["quick"] != "" {
		t.Errorf("tools/list: got %v %v, want 6 tools without an execution member", got, rpcErr)
	}

	// A session of 2025-11-25 has tasks of its own (TestCoreTasks): a
	// required tool called without one is refused. One of 2025-06-18 has
	// none, and calls it as a plain call.
	for version, want := range map[string]string{"2025-11-25": "-32601", "2025-06-18": "done at once"} {
		old := newStdioPeer(t, srv)
		old.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		old.recv(1)
		old.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		old.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quick","arguments":{}}}`)
		if res, rpcErr := old.recv(2); !strings.Contains(jsonText(res["content"])+jsonText(rpcErr["code"]), want) {
			t.Errorf("tools/call quick in a %s session: got %v %v, want %s", version, res, rpcErr, want)
		}
	}
}

// jsonText is v as JSON.
func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

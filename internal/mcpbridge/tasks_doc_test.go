package mcpbridge_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// TestTasksDoc sends docs/tasks.md's requests, with its headers, to the
// research example over streamable HTTP, and checks that the answers have
// the fields the page shows: a task, then its outcome; and the page's
// listen of the ended task: its acknowledgement, its state, its result.
func TestTasksDoc(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "tasks.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) != 4 {
		t.Fatalf("got %d json blocks in docs/tasks.md, want 4: the call, its answer, tasks/get, subscriptions/listen", len(blocks))
	}
	call, answer, get, listen := blocks[0][1], blocks[1][1], blocks[2][1], blocks[3][1]
	sameRequest(t, call, map[string][]byte{"README.md": readmeCall(t), "sdk/doc.go": sdkDocCall(t)})
	headers := map[string]string{}
	for _, m := range regexp.MustCompile(`-H '([^:]+): ([^']+)'`).FindAllSubmatch(doc, -1) {
		headers[string(m[1])] = string(m[2])
	}

	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte("var Mod = sdk.DefineMod(…)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := mcpbridge.NewServer(loadHost(t, filepath.Join("..", "..", "examples", "research")), &mcpbridge.Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(nil)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.Close() })

	send := func(body []byte, name string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", ts.URL, bytes.NewReader(body))
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		var m struct{ Method string }
		json.Unmarshal(body, &m)
		req.Header.Set("Mcp-Method", m.Method)
		req.Header.Set("Mcp-Name", name)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	post := func(body []byte, name string) map[string]any {
		t.Helper()
		resp := send(body, name)
		defer resp.Body.Close()
		var out struct {
			Result map[string]any
			Error  any
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Error != nil {
			t.Fatalf("%s: got error %v, %v; want a result", body, out.Error, err)
		}
		return out.Result
	}

	if got, want := headers["Mcp-Method"], "tools/call"; got != want {
		t.Errorf("the page's Mcp-Method header: got %q, want %q", got, want)
	}
	task := post(call, headers["Mcp-Name"])
	var shown struct{ Result map[string]any }
	if err := json.Unmarshal(answer, &shown); err != nil {
		t.Fatalf("the page's answer: %v", err)
	}
	// The task is working, or already completed when the tool ended
	// before the answer was written.
	if task["resultType"] != "task" || (task["status"] != "working" && task["status"] != "completed") {
		t.Fatalf("got %v, want a working or completed task", task)
	}
	for k := range shown.Result {
		if _, ok := task[k]; !ok && k != "statusMessage" { // a call that reported nothing yet has none
			t.Errorf("the page shows %s in the task, which the answer %v lacks", k, task)
		}
	}
	id := task["taskId"].(string)
	getBody := bytes.Replace(get, []byte(shown.Result["taskId"].(string)), []byte(id), 1)
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		res := post(getBody, id)
		if res["resultType"] != "complete" || res["taskId"] != id {
			t.Fatalf("tasks/get: got %v, want task %s", res, id)
		}
		if res["status"] == "working" && time.Now().Before(deadline) {
			continue
		}
		result, _ := json.Marshal(res["result"])
		if res["status"] != "completed" || !strings.Contains(string(result), "main.go:1") {
			t.Fatalf("tasks/get: got %v, want completed with the hit in main.go", res)
		}
		if msg, _ := res["statusMessage"].(string); msg == "" {
			t.Errorf("tasks/get: got no statusMessage, want the handler's latest status")
		}
		break
	}

	// The listen of the ended task: acknowledged, its state, its result.
	resp := send(bytes.Replace(listen, []byte(shown.Result["taskId"].(string)), []byte(id), 1), "")
	stream, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	var heard []string
	for _, line := range strings.Split(string(stream), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var m struct {
			Method string
			Params struct {
				Notifications  struct{ TaskIDs []string }
				TaskID, Status string
			}
			Result struct{ ResultType string }
		}
		json.Unmarshal([]byte(data), &m)
		heard = append(heard, strings.Join(append([]string{m.Method, m.Params.TaskID, m.Params.Status, m.Result.ResultType}, m.Params.Notifications.TaskIDs...), " "))
	}
	if want := []string{"notifications/subscriptions/acknowledged    " + id, "notifications/tasks " + id + " completed ", "   complete"}; !slices.Equal(heard, want) {
		t.Errorf("the page's listen: got\n%q\nwant\n%q", heard, want)
	}
	for _, status := range []string{"working", "input_required", "completed", "failed", "cancelled"} {
		if !slices.Contains(strings.Fields(strings.NewReplacer("`", " ", ",", " ", ";", " ").Replace(string(doc))), status) {
			t.Errorf("the page does not name the status %s", status)
		}
	}
}

// readmeCall is the README's tools/call of a task.
func readmeCall(t *testing.T) []byte {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(readme, -1) {
		if bytes.Contains(m[1], []byte(mcpbridge.TasksExtension)) {
			return m[1]
		}
	}
	t.Fatal("README.md shows no tools/call of a task")
	return nil
}

// sdkDocCall is the sdk doc's tools/call of a task: the indented lines
// that start with its "jsonrpc".
func sdkDocCall(t *testing.T) []byte {
	src, err := os.ReadFile(filepath.Join("..", "..", "sdk", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	var call []byte
	for _, line := range strings.Split(string(src), "\n") {
		switch {
		case call == nil && strings.HasPrefix(line, "//\t{\"jsonrpc\""):
			call = []byte(strings.TrimPrefix(line, "//\t"))
		case call != nil && strings.HasPrefix(line, "//\t"):
			call = append(call, strings.TrimPrefix(line, "//\t")...)
		case call != nil:
			return call
		}
	}
	t.Fatal("sdk/doc.go shows no tools/call of a task")
	return nil
}

// sameRequest checks that the other pages' requests, by page, are the
// docs page's, as JSON.
func sameRequest(t *testing.T, page []byte, others map[string][]byte) {
	var want any
	if err := json.Unmarshal(page, &want); err != nil {
		t.Fatalf("docs/tasks.md's call: %v", err)
	}
	for name, call := range others {
		var got any
		if err := json.Unmarshal(call, &got); err != nil {
			t.Errorf("%s's call: %v", name, err)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s's call: got %s, want docs/tasks.md's %s", name, call, page)
		}
	}
}

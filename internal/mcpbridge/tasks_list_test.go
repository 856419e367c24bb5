package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
		data, _ := json.Marshal(res)
		got := taskSupports(t, data)
		want := map[string]string{"work": "optional", "ask": "optional", "quick": "required", "plain": "forbidden",
			"flash": "optional", "flash_batched": "optional"}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("caps %v: tool %s: got taskSupport %q, want %q", caps, name, got[name], w)
			}
		}
	}
}

func TestTaskSupportListedOverStdio(t *testing.T) {
	srv, err := NewServer(newTaskBackend(), nil)
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`,
	}, "\n")
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := srv.ServeStdio(ctx, strings.NewReader(in), &out, nil); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || string(m.ID) != "2" {
			continue
		}
		// Over stdio every call is a plain call: no tool is a task's.
		for name, got := range taskSupports(t, m.Result) {
			if got != "forbidden" {
				t.Errorf("tool %s: got taskSupport %q, want forbidden", name, got)
			}
		}
		return
	}
	t.Fatalf("no tools/list result in:\n%s", out.String())
}

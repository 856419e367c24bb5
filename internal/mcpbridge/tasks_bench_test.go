package mcpbridge

import (
	"testing"
)

// BenchmarkTaskHTTP: a call of flash (it reports a status, which makes it
// a task, then ends) polled to completion, over streamable HTTP with the
// fake backend: the cost of a task without a mod's.
func BenchmarkTaskHTTP(b *testing.B) {
	url := taskServer(&testing.T{}, newTaskBackend(), nil)
	polls := 0
	defer func() { b.ReportMetric(float64(polls)/float64(b.N), "polls/op") }()
	for b.Loop() {
		res, e := postB(b, url, "tools/call", "flash", map[string]any{"name": "flash", "arguments": map[string]any{}}, withTasks)
		if e != nil || res["resultType"] != "task" {
			b.Fatalf("got %v %v", res, e)
		}
		id := res["taskId"].(string)
		for {
			polls++
			res, e := postB(b, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks)
			if e != nil {
				b.Fatal(e)
			}
			if res["status"] == "completed" {
				break
			}
		}
	}
}

// BenchmarkPlainHTTP: a plain call of the same kind, for comparison.
func BenchmarkPlainHTTP(b *testing.B) {
	url := taskServer(&testing.T{}, newTaskBackend(), nil)
	for b.Loop() {
		res, e := postB(b, url, "tools/call", "plain", map[string]any{"name": "plain", "arguments": map[string]any{}}, withTasks)
		if e != nil || res["resultType"] != "complete" {
			b.Fatalf("got %v %v", res, e)
		}
	}
}

func postB(b *testing.B, url, method, name string, params, caps map[string]any) (map[string]any, map[string]any) {
	t := &testing.T{}
	return post(t, url, method, name, params, caps)
}

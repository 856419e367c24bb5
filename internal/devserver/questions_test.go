package devserver_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

const askingDir = "../../host/testdata/mods/asking"

func TestQuestionsInThePage(t *testing.T) {
	t.Parallel()
	f := start(t, askingDir)
	id := f.call("asking_greet", `{}`, "")
	q := f.waitEvent(id, "question")
	if q["key"] != "name" || q["kind"] != "form" || q["message"] != "What is your name?" {
		t.Fatalf("question event: got %v, want the name form", q)
	}
	if code, _ := f.do("POST", "/api/calls/"+id+"/question", map[string]any{"key": "color", "answer": json.RawMessage(`{"action":"accept"}`)}); code != http.StatusConflict {
		t.Errorf("answer to another question: got %d, want 409", code)
	}
	// An answer that breaks the form is refused, and the question asked
	// again saying why.
	if code, out := f.do("POST", "/api/calls/"+id+"/question", map[string]any{"key": "name", "answer": json.RawMessage(`{"action":"accept","content":{}}`)}); code != http.StatusAccepted {
		t.Fatalf("answer: got %d %s, want 202", code, out)
	}
	// The event stream replays from the start: the refused question is the
	// second "question" event.
	again := f.nthEvent(id, "question", 2)
	if again["key"] != "name" || again["refusal"] == nil {
		t.Fatalf("question asked again: got %v, want name with a refusal", again)
	}
	f.do("POST", "/api/calls/"+id+"/question", map[string]any{"key": "name", "answer": json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`)})
	if c := f.nthEvent(id, "question", 3); c["key"] != "color" {
		t.Fatalf("second question: got %v, want color", c)
	}
	f.do("POST", "/api/calls/"+id+"/question", map[string]any{"key": "color", "answer": json.RawMessage(`{"action":"accept","content":{"color":"blue"}}`)})
	if o := f.outcome(id); o["status"] != "completed" || o["text"] != "Hello Ada, blue" {
		t.Errorf("outcome: got %v, want completed, Hello Ada, blue", o)
	}
}

// nthEvent reads a call's event stream, from its start, until the n-th
// event of the name, and returns its data.
func (f *fixture) nthEvent(id, name string, n int) map[string]any {
	f.t.Helper()
	resp, err := http.Get(f.ts.URL + "/api/calls/" + id + "/events?token=" + token)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	cur, seen := "", 0
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ": ")
		switch {
		case k == "event":
			cur = v
		case k == "data" && cur == name:
			if seen++; seen < n {
				continue
			}
			var data map[string]any
			if err := json.Unmarshal([]byte(v), &data); err != nil {
				f.t.Fatal(err)
			}
			return data
		}
	}
	f.t.Fatalf("call %s: the stream ended before %d %s events", id, n, name)
	return nil
}

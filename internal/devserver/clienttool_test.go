package devserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

const clientsideDir = "../../host/testdata/mods/clientside"

// TestClientToolAnsweredInPage: a call of a tool only a client runs waits
// for the page's answer, takes the first, refuses a second, and ends as
// the answer says, with the result an MCP client would receive.
func TestClientToolAnsweredInPage(t *testing.T) {
	t.Parallel()
	f := start(t, clientsideDir)
	id := f.call("clientside_measure", `{"element":"menu"}`, "")
	f.waitEvent(id, "client")
	var got map[string]bool
	f.decode("POST", "/api/calls/"+id+"/answer", map[string]any{"text": "menu is 120 px wide", "result": map[string]int{"width": 120}}, http.StatusAccepted, &got)
	if code, body := f.do("POST", "/api/calls/"+id+"/answer", map[string]any{"text": "again"}); code != http.StatusConflict {
		t.Errorf("a second answer: got %d %s, want 409", code, body)
	}
	o := f.outcome(id)
	if o["status"] != "completed" || o["text"] != "menu is 120 px wide" {
		t.Errorf("outcome: got %v %q, want completed with the answer's text", o["status"], o["text"])
	}
	if r, _ := json.Marshal(o["result"]); string(r) != `{"width":120}` {
		t.Errorf("result: got %s, want {\"width\":120}", r)
	}
	if o["mcp"] != nil {
		t.Errorf("the MCP result: got %v, want none: modhost mcp does not offer a tool only a client runs", o["mcp"])
	}
}

func TestClientToolAnswers(t *testing.T) {
	t.Parallel()
	f := start(t, clientsideDir)
	tests := []struct {
		name, tool, input string
		answer            map[string]any
		status, want      string // want: in the outcome's text or error
	}{
		{"error", "clientside_pick", `{"choices":["a","b"]}`, map[string]any{"error": "nobody picked"}, "failed", "nobody picked"},
		{"result off its schema", "clientside_measure", `{"element":"x"}`, map[string]any{"text": "wide", "result": map[string]int{"width": -1}}, "failed", "/width"},
		{"text", "clientside_pick", `{"choices":["a","b"]}`, map[string]any{"text": "b"}, "completed", "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := f.call(tt.tool, tt.input, "")
			f.waitEvent(id, "client")
			var got map[string]bool
			f.decode("POST", "/api/calls/"+id+"/answer", tt.answer, http.StatusAccepted, &got)
			o := f.outcome(id)
			text, _ := o["text"].(string)
			errText, _ := o["error"].(string)
			if o["status"] != tt.status || !strings.Contains(text+errText, tt.want) {
				t.Errorf("got %v, text %q, error %q; want %s saying %q", o["status"], text, errText, tt.status, tt.want)
			}
		})
	}
}

// TestClientToolNotWaiting: an answer to a call that waits for none, or
// to one cancelled while it waited, is refused.
func TestClientToolNotWaiting(t *testing.T) {
	t.Parallel()
	f := start(t, clientsideDir)
	// An "either" tool runs in its mod here: no answer is asked.
	id := f.call("clientside_clock", `{}`, "")
	if o := f.outcome(id); o["status"] != "completed" {
		t.Fatalf("clientside_clock: got %v, want completed in its mod", o["status"])
	}
	if code, body := f.do("POST", "/api/calls/"+id+"/answer", map[string]any{"text": "noon"}); code != http.StatusConflict {
		t.Errorf("answer to a mod's call: got %d %s, want 409", code, body)
	}
	id = f.call("clientside_pick", `{"choices":["a"]}`, "")
	f.waitEvent(id, "client")
	f.do("POST", "/api/calls/"+id+"/cancel", nil)
	if o := f.outcome(id); o["status"] != "cancelled" {
		t.Errorf("cancelled while waiting: got %v, want cancelled", o["status"])
	}
	if code, body := f.do("POST", "/api/calls/"+id+"/answer", map[string]any{"text": "a"}); code != http.StatusConflict {
		t.Errorf("answer after the cancel: got %d %s, want 409", code, body)
	}
}

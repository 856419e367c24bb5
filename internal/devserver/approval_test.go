package devserver_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

const approvingDir = "../../host/testdata/mods/approving"

// waitEvent reads a call's event stream until the named event, and
// returns its data.
func (f *fixture) waitEvent(id, name string) map[string]any {
	f.t.Helper()
	resp, err := http.Get(f.ts.URL + "/api/calls/" + id + "/events?token=" + token)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	cur := ""
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ": ")
		switch {
		case k == "event":
			cur = v
		case k == "data" && cur == name:
			var data map[string]any
			if err := json.Unmarshal([]byte(v), &data); err != nil {
				f.t.Fatal(err)
			}
			return data
		}
	}
	f.t.Fatalf("call %s: the stream ended without a %s event", id, name)
	return nil
}

func TestApprovalInThePage(t *testing.T) {
	t.Parallel()
	f := start(t, approvingDir)
	for _, tt := range []struct {
		approve bool
		want    string
	}{{true, "completed"}, {false, "denied"}} {
		id := f.call("approving_guarded", `{"reason":"Do it"}`, "")
		if a := f.waitEvent(id, "approval"); a["reason"] != "Do it" || a["question"] != "approving_guarded needs your approval: Do it" {
			t.Errorf("approval event: got %v, want the reason and the question", a)
		}
		if code, out := f.do("POST", "/api/calls/"+id+"/approval", map[string]bool{"approve": tt.approve}); code != http.StatusAccepted {
			t.Fatalf("answer: got %d %s, want 202", code, out)
		}
		if code, _ := f.do("POST", "/api/calls/"+id+"/approval", map[string]bool{"approve": true}); code != http.StatusConflict {
			t.Errorf("second answer: got %d, want 409", code)
		}
		if o := f.outcome(id); o["status"] != tt.want || o["approvalReason"] != "Do it" {
			t.Errorf("outcome after approve=%v: got %v, want %s, asked %q", tt.approve, o, tt.want, "Do it")
		}
		evs := f.events(id)
		var names []string
		for _, e := range evs {
			names = append(names, e.Name)
		}
		if got := strings.Join(names, " "); got != "approval answered outcome" {
			t.Errorf("events: got %q, want approval, answered, outcome", got)
		}
	}
	id := f.call("approving_guarded", `{}`, "")
	if o := f.outcome(id); o["status"] != "completed" || o["approvalReason"] != nil {
		t.Errorf("a call that needs no approval: got %v, want completed, asking nothing", o)
	}
	if code, _ := f.do("POST", "/api/calls/"+id+"/approval", map[string]bool{"approve": true}); code != http.StatusConflict {
		t.Errorf("answer to a call not asking: got %d, want 409", code)
	}
}

// TestApprovalWithClientActions: a call approved in the page shows its
// client actions with the outcome; a denied one shows none.
func TestApprovalWithClientActions(t *testing.T) {
	t.Parallel()
	f := start(t, approvingDir)
	for _, tt := range []struct {
		approve      bool
		status, want string
	}{{true, "completed", `[{"kind":"reveal","params":{"secret":"s"}}]`}, {false, "denied", `null`}} {
		id := f.call("approving_reveal", `{"secret":"s"}`, "")
		f.waitEvent(id, "approval")
		if code, out := f.do("POST", "/api/calls/"+id+"/approval", map[string]bool{"approve": tt.approve}); code != http.StatusAccepted {
			t.Fatalf("answer: got %d %s, want 202", code, out)
		}
		o := f.outcome(id)
		got, _ := json.Marshal(o["clientActions"])
		if o["status"] != tt.status || string(got) != tt.want {
			t.Errorf("approve=%v: got status %v and client actions %s, want %s and %s", tt.approve, o["status"], got, tt.status, tt.want)
		}
	}
}

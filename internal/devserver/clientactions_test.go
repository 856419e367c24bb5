package devserver_test

import (
	"encoding/json"
	"testing"
)

// TestClientActions checks that a call's outcome event carries its client
// actions, for the page's outcome panel.
func TestClientActions(t *testing.T) {
	t.Parallel()
	f := start(t, crashyDir)
	o := f.outcome(f.call("crashy_act", `{"returned":[{"kind":"mark","params":{"line":4}}]}`, ""))
	got, err := json.Marshal(o["clientActions"])
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"kind":"mark","params":{"line":4}}]`; o["status"] != "completed" || string(got) != want {
		t.Errorf("got status %v and client actions %s, want completed with %s", o["status"], got, want)
	}
	o = f.outcome(f.call("crashy_act", `{}`, ""))
	if _, ok := o["clientActions"]; ok {
		t.Errorf("got client actions %v from a call with none, want the key left out", o["clientActions"])
	}
}

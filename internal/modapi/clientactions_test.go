package modapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
)

func TestResultCapCountsActions(t *testing.T) {
	o := Outcome{Status: Completed, Text: "ok", Actions: []sdk.ClientAction{{Kind: "mark", Params: json.RawMessage(`{"line":1}`)}}}
	if got, want := ResultSize(&o), len("ok")+len("mark")+len(`{"line":1}`); got != want {
		t.Errorf("got size %d, want %d", got, want)
	}
	CapResult("t", &o, 15)
	if o.Status != Failed || !strings.Contains(o.Error, "returned 16 bytes, over the 15-byte result limit") {
		t.Errorf("got %+v, want failed over the cap", o)
	}
}

func TestCheckActionKinds(t *testing.T) {
	actions := []sdk.ClientAction{{Kind: "mark"}, {Kind: "wipe"}}
	if got := CheckActionKinds("t", []string{"mark", "wipe"}, actions); got != "" {
		t.Errorf("declared kinds: got %q, want none", got)
	}
	want := `tool t returned client action 1 ("wipe"): the tool declares no such kind (it declares "mark")`
	if got := CheckActionKinds("t", []string{"mark"}, actions); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	want = `tool t returned client action 0 ("mark"): the tool declares no client actions`
	if got := CheckActionKinds("t", nil, actions); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

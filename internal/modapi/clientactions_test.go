package modapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
)

func TestResultCapCountsActions(t *testing.T) {
	t.Parallel()
	o := Outcome{Status: StatusCompleted, Text: "ok", Actions: []sdk.ClientAction{{Kind: "mark", Params: json.RawMessage(`{"line":1}`)}}}
	if got, want := ResultSize(&o), len("ok")+len("mark")+len(`{"line":1}`); got != want {
		t.Errorf("got size %d, want %d", got, want)
	}
	CapResult("t", &o, 15)
	if o.Status != StatusFailed || !strings.Contains(o.Error, "returned 16 bytes, over the 15-byte result limit") {
		t.Errorf("got %+v, want failed over the cap", o)
	}
}

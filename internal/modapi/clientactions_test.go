package modapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/limits"
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

func TestBadAction(t *testing.T) {
	t.Parallel()
	tests := []struct{ got, want string }{
		{BadAction("t", 1, "wipe", UndeclaredAction([]string{"mark", "open"})),
			`tool t returned client action 1 ("wipe"): the tool declares no such kind (it declares "mark", "open")`},
		{BadAction("t", 0, "mark", UndeclaredAction(nil)), `tool t returned client action 0 ("mark"): the tool declares no client actions`},
		{BadAction("t", 0, "mark", InvalidParams([]string{"/a: x", "/b: y"})), "tool t returned client action 0 (\"mark\"): invalid params:\n  /a: x\n  /b: y"},
		{BadAction("t", 2, strings.Repeat("k", 300), InvalidParams([]string{"/a: x"})),
			`tool t returned client action 2 ("` + strings.Repeat("k", limits.MaxEcho) + `…"): invalid params: /a: x`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

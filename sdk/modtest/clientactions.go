package modtest

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modkit/modkit/sdk"
)

// WantActions fails t unless the call completed with exactly the client
// actions want, in order: the same kinds, and params equal as JSON values.
// Build want with the kinds' New, as the handler does:
//
//	out.WantActions(t, research.OpenFile.New(research.OpenFileParams{Path: "a.md", Line: 3}))
func (o *Outcome) WantActions(t testing.TB, want ...sdk.ClientAction) {
	t.Helper()
	if o.Status != StatusCompleted {
		t.Errorf("%s: got status %s (%s), want completed with client actions %s", o.tool, o.Status, o.Text, actionsJSON(want))
		return
	}
	if !sameActions(o.Actions, want) {
		t.Errorf("%s: got client actions %s, want %s", o.tool, actionsJSON(o.Actions), actionsJSON(want))
	}
}

// sameActions reports whether a and b have the same kinds and equal
// params, in order.
func sameActions(a, b []sdk.ClientAction) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind {
			return false
		}
		var pa, pb any
		if json.Unmarshal(a[i].Params, &pa) != nil || json.Unmarshal(b[i].Params, &pb) != nil || !reflect.DeepEqual(pa, pb) {
			return false
		}
	}
	return true
}

// actionsJSON shows actions as JSON, one line.
func actionsJSON(as []sdk.ClientAction) string {
	if as == nil {
		as = []sdk.ClientAction{}
	}
	data, err := json.Marshal(as)
	if err != nil {
		return err.Error()
	}
	return string(data)
}

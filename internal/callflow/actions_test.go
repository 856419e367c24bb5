package callflow

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// ActionCheck holds a call's client actions to the kinds its tool lists
// and their params schemas, naming the first that is wrong.
func TestActionCheck(t *testing.T) {
	m := &manifest.Manifest{ID: "m", ClientActions: []manifest.ClientActionKind{
		{Kind: "mark", ParamsSchema: json.RawMessage(`{"type":"object","properties":{"line":{"type":"integer","minimum":1}},"required":["line"]}`)},
		{Kind: "other", ParamsSchema: json.RawMessage(`{"type":"object"}`)},
	}}
	check := ActionCheck(m, manifest.Tool{Name: "t", ClientActions: []string{"mark"}})
	for _, tt := range []struct {
		name    string
		actions []sdk.ClientAction
		want    string // a part of the failure; "" for none
	}{
		{"none", nil, ""},
		{"fits", []sdk.ClientAction{{Kind: "mark", Params: json.RawMessage(`{"line":2}`)}}, ""},
		{"bad params", []sdk.ClientAction{{Kind: "mark", Params: json.RawMessage(`{"line":2}`)}, {Kind: "mark", Params: json.RawMessage(`{"line":0}`)}}, "/line"},
		{"a kind the tool does not list", []sdk.ClientAction{{Kind: "other", Params: json.RawMessage(`{}`)}}, "other"},
	} {
		got := check(tt.actions)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %q, want a failure naming %q", tt.name, got, tt.want)
		}
	}
}

package host_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/host/testdata/mods/crashy"
	"github.com/modkit/modkit/sdk"
)

// actCases are calls of crashy_act and what they end in, the same whether
// the mod runs in its own process or in the test's.
var actCases = []struct {
	name, input string
	// actions are the actions of a completed call, as JSON; text is the
	// model's text of a failed one.
	actions, text string
}{
	{name: "acted then returned, in order",
		input:   `{"acted":[{"kind":"mark","params":{"line":3}}],"returned":[{"kind":"mark","params":{"line":1,"weight":0.5}}]}`,
		actions: `[{"kind":"mark","params":{"line":3}},{"kind":"mark","params":{"line":1,"weight":0.5}}]`},
	{name: "none", input: `{}`, actions: `null`},
	{name: "undeclared kind",
		input: `{"acted":[{"kind":"mark","params":{"line":3}}],"returned":[{"kind":"highlight_panel","params":{}}]}`,
		text:  `Tool failed: tool crashy_act returned client action 1 ("highlight_panel"): the tool declares no such kind (it declares "mark")`},
	{name: "invalid params",
		input: `{"returned":[{"kind":"mark","params":{"line":0,"colour":"red"}}]}`,
		text:  "Tool failed: tool crashy_act returned client action 0 (\"mark\"): invalid params:\n  /line: must be at least 1, got 0\n  /: unknown property \"colour\" (allowed: \"line\", \"weight\")"},
	{name: "params not an object",
		input: `{"returned":[{"kind":"mark","params":[1]}]}`,
		text:  `Tool failed: tool crashy_act returned client action 0 ("mark"): invalid params: /: must be an object, got an array`},
	{name: "params that do not encode",
		input: `{"unencodable":true}`,
		text:  `Tool failed: tool crashy_act returned client action 0 ("mark"): params cannot be encoded: JSON cannot carry the number NaN`},
	{name: "failed call drops its actions",
		input: `{"acted":[{"kind":"mark","params":{"line":3}}],"fail":true}`,
		text:  `Tool failed: failed after acting`},
}

func TestClientActions(t *testing.T) {
	t.Parallel()
	hosts := map[string]*testHost{"process": load(t, nil, crashyDir), "in process": loadInProcess(t, nil)}
	for where, h := range hosts {
		for _, c := range actCases {
			t.Run(where+"/"+c.name, func(t *testing.T) {
				res, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_act", Input: json.RawMessage(c.input), Session: session(t)})
				if err != nil {
					t.Fatal(err)
				}
				if c.text != "" {
					wantStatus(t, res, host.StatusFailed)
					if res.Text != c.text {
						t.Errorf("got text %q, want %q", res.Text, c.text)
					}
					if res.Actions != nil {
						t.Errorf("got actions %+v from a failed call, want none", res.Actions)
					}
					return
				}
				wantStatus(t, res, host.StatusCompleted)
				got, err := json.Marshal(res.Actions)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != c.actions {
					t.Errorf("got actions %s, want %s", got, c.actions)
				}
			})
		}
	}
}

// TestHostChecksActionKinds runs a mod whose tool emits a kind its
// manifest does not declare: the host fails the call even though the mod
// let the action through.
func TestHostChecksActionKinds(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	sneaky := sdk.ClientActionKind[crashy.MarkParams]{Kind: "sneaky", Description: "Not in the manifest."}
	g := crashy.Modkit()
	mod := g.Mod
	mod.AI.Tools = []sdk.Tool{sdk.PlainTool[crashy.ActInput]{
		Name:          "crashy_act",
		Description:   "Emits an action of a kind the manifest does not declare.",
		ClientActions: []sdk.ClientActionType{crashy.Mark, sneaky},
		Run: func(tc *sdk.ToolContext, in crashy.ActInput) (sdk.Result, error) {
			return sdk.Result{Text: "acted", Actions: []sdk.ClientAction{crashy.Mark.New(crashy.MarkParams{Line: 1}), sneaky.New(crashy.MarkParams{Line: 2})}}, nil
		},
	}}
	g.Mod = mod
	if err := host.RunInProcess(h.Host, g); err != nil {
		t.Fatal(err)
	}
	res, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_act", Session: session(t)})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusFailed)
	want := `Tool failed: tool crashy_act returned client action 1 ("sneaky"): the tool declares no such kind (it declares "mark")`
	if res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
}

// TestHostChecksActionParams runs the crashy mod without its generated
// params checks, so the mod lets an invalid action through: the host
// checks it against the manifest's params schema and fails the call.
func TestHostChecksActionParams(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	g := crashy.Modkit()
	g.ClientActions = nil
	if err := host.RunInProcess(h.Host, g); err != nil {
		t.Fatal(err)
	}
	res, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_act", Session: session(t),
		Input: json.RawMessage(`{"returned":[{"kind":"mark","params":{"line":2}},{"kind":"mark","params":{"line":0}}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusFailed)
	want := `Tool failed: tool crashy_act returned client action 1 ("mark"): invalid params: /line: must be at least 1, got 0`
	if res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
}

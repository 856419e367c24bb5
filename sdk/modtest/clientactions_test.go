package modtest

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/modkit/modkit/sdk"
)

type noteParams struct {
	Text string `json:"text"`
}

var note = sdk.ClientActionKind[noteParams]{Kind: "note", Description: "Shows a note."}

var actMod = &sdk.Generated{
	Mod: sdk.DefineMod(sdk.Mod{AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[echoIn]{
			Name:          "notes",
			Description:   "Shows notes.",
			ClientActions: []sdk.ClientActionType{note},
			Run: func(tc *sdk.ToolContext, in echoIn) (sdk.Result, error) {
				tc.Act(note.New(noteParams{Text: "first"}))
				return sdk.Result{Text: "noted", Actions: []sdk.ClientAction{note.New(noteParams{Text: in.Text})}}, nil
			},
		},
	}}}),
	// A generated check stands in: text must not be empty.
	ClientActions: map[string]sdk.ParamsCheck{"note": func(params []byte) error {
		if bytes.Contains(params, []byte(`"text":""`)) {
			return &sdk.InputError{Problems: []string{"/text: must not be empty"}}
		}
		return nil
	}},
}

func TestWantActions(t *testing.T) {
	out := Run(t, actMod, "notes", `{"text":"second"}`, nil)
	out.WantActions(t, note.New(noteParams{Text: "first"}), note.New(noteParams{Text: "second"}))

	rec := &recordingTB{TB: t}
	out.WantActions(rec, note.New(noteParams{Text: "first"}))
	want := `notes: got client actions [{"kind":"note","params":{"text":"first"}},{"kind":"note","params":{"text":"second"}}], want [{"kind":"note","params":{"text":"first"}}]`
	if rec.msg != want {
		t.Errorf("got failure %q, want %q", rec.msg, want)
	}
}

func TestActionParamsChecked(t *testing.T) {
	out := Run(t, actMod, "notes", `{"text":""}`, nil)
	want := `Tool failed: tool notes returned client action 1 ("note"): invalid params: /text: must not be empty`
	if out.Status != StatusFailed || out.Text != want {
		t.Errorf("got %s %q, want failed %q", out.Status, out.Text, want)
	}
	rec := &recordingTB{TB: t}
	out.WantActions(rec)
	if want := `notes: got status failed (` + want + `), want completed with client actions []`; rec.msg != want {
		t.Errorf("got failure %q, want %q", rec.msg, want)
	}
}

// recordingTB records the failure a helper reports instead of failing.
type recordingTB struct {
	testing.TB
	msg string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) { r.msg = fmt.Sprintf(format, args...) }

// TestRenderedToolActs checks that a rendered tool's actions come through
// ToolContext.Act, beside its typed result.
func TestRenderedToolActs(t *testing.T) {
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{AI: sdk.AI{Tools: []sdk.Tool{
		sdk.RenderedTool[echoIn, countOut]{
			Name:          "count",
			Description:   "Counts.",
			ClientActions: []sdk.ClientActionType{note},
			Run: func(tc *sdk.ToolContext, in echoIn) (countOut, error) {
				tc.Act(note.New(noteParams{Text: in.Text}))
				return countOut{Numbers: []int{1}}, nil
			},
			View: sdk.View[echoIn, countOut]{Text: func(countOut) string { return "counted" }},
		},
	}}})}
	out := Run(t, g, "count", `{"text":"seen"}`, nil)
	out.WantActions(t, note.New(noteParams{Text: "seen"}))
	if string(out.Result) != `{"numbers":[1]}` {
		t.Errorf("got result %s, want the typed result beside the actions", out.Result)
	}
}

type gaugeParams struct {
	Level float64 `json:"level"`
}

type gaugeOut struct {
	Level float64 `json:"level"`
}

var gauge = sdk.ClientActionKind[gaugeParams]{Kind: "gauge", Description: "Shows a level."}

// A value JSON cannot carry, in an action's params or a typed result,
// fails the call in JSON's words, naming no Go type or package.
func TestUnencodableValues(t *testing.T) {
	nan := math.NaN()
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[echoIn]{
			Name: "act", Description: "Acts.", ClientActions: []sdk.ClientActionType{gauge},
			Run: func(tc *sdk.ToolContext, in echoIn) (sdk.Result, error) {
				return sdk.Result{Text: "acted", Actions: []sdk.ClientAction{gauge.New(gaugeParams{Level: nan})}}, nil
			},
		},
		sdk.RenderedTool[echoIn, gaugeOut]{
			Name: "measure", Description: "Measures.",
			Run:  func(tc *sdk.ToolContext, in echoIn) (gaugeOut, error) { return gaugeOut{Level: nan}, nil },
			View: sdk.View[echoIn, gaugeOut]{Text: func(gaugeOut) string { return "measured" }},
		},
	}}})}
	for tool, want := range map[string]string{
		"act":     `Tool failed: tool act returned client action 0 ("gauge"): params cannot be encoded: JSON cannot carry the number NaN`,
		"measure": "Tool failed: tool measure returned a result that cannot be encoded: JSON cannot carry the number NaN",
	} {
		if out := Run(t, g, tool, `{"text":"x"}`, nil); out.Status != StatusFailed || out.Text != want {
			t.Errorf("%s: got %s %q, want failed %q", tool, out.Status, out.Text, want)
		}
	}
}

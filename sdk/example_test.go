package sdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"strings"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// GreetInput is the input of the greet tool.
type GreetInput struct {
	// Name is who to greet.
	Name string `json:"name" jsonschema:"minLength=1,maxLength=100"`
}

// A plain tool returns text. Here it is run with sdk/modtest, as a test
// would, with the date pinned.
func Example_plainTool() {
	mod := sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "greeter", DisplayName: "Greeter", Description: "Greets people."},
		AI: sdk.AI{Tools: []sdk.Tool{
			sdk.PlainTool[GreetInput]{
				Name:        "greeter_greet",
				Description: "Returns a greeting for a person. Call this when asked to greet someone.",
				Activity:    "Greeting…",
				Run: func(tc *sdk.ToolContext, in GreetInput) (sdk.Result, error) {
					tc.Status("Choosing words…")
					return sdk.Text(fmt.Sprintf("Hello, %s! Today is %s.", in.Name, tc.Today())), nil
				},
			},
		}},
	})

	out, err := modtest.Call(&sdk.Generated{Mod: mod}, "greeter_greet", `{"name": "Ada"}`,
		&modtest.Options{Today: "2026-03-14"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Status)
	fmt.Println(out.Text)
	fmt.Println(out.Activity.Status)
	// Output:
	// completed
	// Hello, Ada! Today is 2026-03-14.
	// Choosing words…
}

// SumInput is the input of the sum tool.
type SumInput struct {
	// Numbers are added up.
	Numbers []float64 `json:"numbers" jsonschema:"minItems=1,maxItems=1000"`
}

// SumResult is the typed result of the sum tool.
type SumResult struct {
	// Count is how many numbers were added.
	Count int `json:"count"`
	// Total is their sum.
	Total float64 `json:"total"`
}

// A rendered tool returns a typed result: View.Text is what the model reads,
// View.Render the HTML a person sees in each phase.
func Example_renderedTool() {
	sum := sdk.RenderedTool[SumInput, SumResult]{
		Name:        "calc_sum",
		Description: "Adds up numbers and returns the count and the total. Call this for exact sums.",
		Activity:    "Adding…",
		Run: func(tc *sdk.ToolContext, in SumInput) (SumResult, error) {
			r := SumResult{Count: len(in.Numbers)}
			for _, n := range in.Numbers {
				r.Total += n
			}
			return r, nil
		},
		View: sdk.View[SumInput, SumResult]{
			Text: func(r SumResult) string {
				return fmt.Sprintf("The %d numbers add up to %g.", r.Count, r.Total)
			},
			Render: func(s sdk.ViewState[SumInput, SumResult]) string {
				switch s.Phase {
				case sdk.PhasePreparing:
					return "<p>Waiting for the numbers…</p>"
				case sdk.PhaseRunning:
					return fmt.Sprintf("<p>Adding %d numbers…</p>", len(s.Input.Numbers))
				case sdk.PhaseCompleted:
					return fmt.Sprintf("<p>Total: <b>%g</b></p>", s.Result.Total)
				default:
					return "<p>Failed: " + html.EscapeString(s.Error) + "</p>"
				}
			},
		},
	}
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "calc", Description: "Does arithmetic."},
		AI:       sdk.AI{Tools: []sdk.Tool{sum}},
	})}

	out, _ := modtest.Call(g, "calc_sum", `{"numbers": [1.5, 2, 3]}`, nil)
	fmt.Println(out.Text)
	fmt.Println(string(out.Result))
	for _, state := range []sdk.RawViewState{
		{Phase: sdk.PhasePreparing, Input: json.RawMessage(`{"numb`)},
		{Phase: sdk.PhaseRunning, Input: json.RawMessage(`{"numbers": [1.5, 2, 3]}`)},
		out.ViewState(),
		{Phase: sdk.PhaseFailed, Error: "numbers <missing>"},
	} {
		html, _ := modtest.RenderView(g, "calc_sum", state)
		fmt.Println(state.Phase, html)
	}
	// Output:
	// The 3 numbers add up to 6.5.
	// {"count":3,"total":6.5}
	// preparing <p>Waiting for the numbers…</p>
	// running <p>Adding 3 numbers…</p>
	// completed <p>Total: <b>6.5</b></p>
	// failed <p>Failed: numbers &lt;missing&gt;</p>
}

// A command is run by a person; a hook can block it. Both receive the
// session and the date from the host's Env.
func Example_command() {
	mod := sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "journal", Description: "Keeps a journal."},
		Commands: []sdk.Command{{
			ID:    "journal.today",
			Title: "Name today's journal page",
			Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
				return fmt.Sprintf("Today's page is %s/journal/%s.md", env.Session.Workspace, env.Today), nil
			},
		}},
		Hooks: []sdk.Hook{{
			BeforeAction: "command:journal.today",
			Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
				if strings.TrimSpace(env.Session.Workspace) == "" {
					return fmt.Errorf("%s needs a workspace", a.Command)
				}
				return nil
			},
		}},
	})

	env := &sdk.Env{Session: sdk.Session{ID: "s1", Workspace: "/home/ada/notes"}, Today: "2026-03-14"}
	for _, h := range mod.Hooks {
		if err := h.Run(context.Background(), env, sdk.Action{Name: h.BeforeAction, Command: "journal.today"}); err != nil {
			fmt.Println("blocked:", err)
			return
		}
	}
	msg, err := mod.Commands[0].Run(context.Background(), env, nil)
	fmt.Println(msg, err)
	// Output:
	// Today's page is /home/ada/notes/journal/2026-03-14.md <nil>
}

package modtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
)

type echoIn struct {
	Text  string `json:"text"`
	Fail  string `json:"fail,omitempty"`
	Panic bool   `json:"panic,omitempty"`
}

type countIn struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

func (c countIn) Validate() error {
	if c.Min > c.Max {
		return fmt.Errorf("/min: must not exceed max (%d), got %d", c.Max, c.Min)
	}
	return nil
}

type countOut struct {
	Numbers []int `json:"numbers"`
}

type waitIn struct {
	Steps int `json:"steps"`
}

var testMod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "testmod", DisplayName: "Test", Description: "Exercises modtest."},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[echoIn]{
			Name: "echo", Description: "Echoes.", Activity: "Echoing…",
			Run: func(tc *sdk.ToolContext, in echoIn) (sdk.Result, error) {
				tc.Title("first")
				tc.Title("second")
				tc.Status("one")
				tc.Status("two")
				tc.Log("a")
				tc.Log("b")
				tc.Logger().Info("echo", "text", in.Text)
				if in.Panic {
					panic("boom")
				}
				if in.Fail != "" {
					return sdk.Result{}, errors.New(in.Fail)
				}
				s := tc.Session()
				return sdk.Result{
					Text:   fmt.Sprintf("%s|%s|%s|%s|%s", in.Text, tc.Today(), s.ID, s.Workspace, tc.CallID()),
					Output: &sdk.Output{MimeType: "text/plain", Content: in.Text},
				}, nil
			},
		},
		sdk.RenderedTool[countIn, countOut]{
			Name: "count", Description: "Counts.", Activity: "Counting…",
			Run: func(tc *sdk.ToolContext, in countIn) (countOut, error) {
				var out countOut
				for i := in.Min; i <= in.Max; i++ {
					out.Numbers = append(out.Numbers, i)
				}
				return out, nil
			},
			View: sdk.View[countIn, countOut]{
				Text: func(r countOut) string { return fmt.Sprint(r.Numbers) },
				Render: func(s sdk.ViewState[countIn, countOut]) string {
					switch s.Phase {
					case sdk.PhaseCompleted:
						return fmt.Sprintf("<p>%d numbers</p>", len(s.Result.Numbers))
					case sdk.PhaseFailed:
						return "<p>" + html.EscapeString(s.Error) + "</p>"
					default:
						return fmt.Sprintf("<p>%s from %d</p>", s.Phase, s.Input.Min)
					}
				},
			},
		},
		sdk.PlainTool[waitIn]{
			Name: "wait", Description: "Waits for cancellation.",
			Run: func(tc *sdk.ToolContext, in waitIn) (sdk.Result, error) {
				for i := 1; i <= in.Steps; i++ {
					tc.Status(fmt.Sprintf("step %d", i))
				}
				select {
				case waiting <- struct{}{}:
				default:
				}
				<-tc.Done()
				tc.Log("after cancel")
				return sdk.Result{}, tc.Err()
			},
		},
	}},
	Commands: []sdk.Command{{
		ID: "testmod.hello", Title: "Hello",
		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			return fmt.Sprintf("hello %s on %s (%s)", env.Session.Workspace, env.Today, args), nil
		},
	}, {
		ID: "testmod.panic", Title: "Panics",
		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			panic("command boom")
		},
	}},
	SlashCommands: []sdk.SlashCommand{{
		ID: "say", Description: "Says.",
		Run: func(ctx context.Context, env *sdk.Env, text string) (string, error) {
			return "said " + text, nil
		},
	}},
	Hooks: []sdk.Hook{
		{BeforeAction: sdk.ActionToolCall, Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
			if a.Tool == "wait" {
				return errors.New("no waiting")
			}
			return nil
		}},
		{BeforeAction: "command:testmod.hello", Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
			return errors.New("hello is blocked")
		}},
	},
})

var gen = &sdk.Generated{Mod: testMod}

// waiting holds a signal once the wait tool's handler waits for
// cancellation.
var waiting = make(chan struct{}, 1)

func TestRunCompleted(t *testing.T) {
	out := Run(t, gen, "echo", `{"text":"hi"}`, &Options{Workspace: "/ws"})
	if out.Status != StatusCompleted {
		t.Fatalf("got status %s (%v), want completed", out.Status, out.Err)
	}
	if want := "hi|2026-01-02|modtest-session|/ws|modtest-call-1"; out.Text != want {
		t.Errorf("got text %q, want %q", out.Text, want)
	}
	if len(out.Outputs) != 1 || out.Outputs[0] != (sdk.Output{MimeType: "text/plain", Content: "hi"}) {
		t.Errorf("got outputs %+v, want text/plain hi", out.Outputs)
	}
	wantState := sdk.ActivityState{Title: "first", Status: "two", Log: []sdk.LogEntry{{Seq: 1, Message: "a"}, {Seq: 2, Message: "b"}}}
	if out.Activity.Title != wantState.Title || out.Activity.Status != wantState.Status || !reflect.DeepEqual(out.Activity.Log, wantState.Log) {
		t.Errorf("got activity %+v, want %+v", out.Activity, wantState)
	}
	if !out.Activity.Ended {
		t.Error("got activity not ended, want ended")
	}
	if len(out.Updates) != 6 || out.Updates[1] != (sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: "second"}) {
		t.Errorf("got updates %v, want all six raw updates in order", out.Updates)
	}
}

func TestRunOptions(t *testing.T) {
	out := Run(t, gen, "echo", map[string]string{"text": "x"}, &Options{Today: "2030-05-06", SessionID: "s9", CallID: "c9"})
	if want := "x|2030-05-06|s9||c9"; out.Text != want {
		t.Errorf("got %q, want %q", out.Text, want)
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct {
		name, tool, input string
		wantText          string
		wantInputErr      bool
	}{
		{"handler error", "echo", `{"text":"x","fail":"disk on fire"}`, "Tool failed: disk on fire", false},
		{"panic", "echo", `{"text":"x","panic":true}`, "Tool failed: tool echo panicked: boom", false},
		{"bad json", "echo", `{"text":`, "Tool failed: ", true},
		{"wrong type", "echo", `{"text":3}`, "Tool failed: ", true},
		{"cross-field rule", "count", `{"min":5,"max":2}`, "Tool failed: invalid input for tool count:\n  /min: must not exceed max (2), got 5", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Run(t, gen, tt.tool, tt.input, nil)
			if out.Status != StatusFailed {
				t.Fatalf("got status %s, want failed", out.Status)
			}
			if !strings.HasPrefix(out.Text, tt.wantText) {
				t.Errorf("got text %q, want prefix %q", out.Text, tt.wantText)
			}
			var ie *sdk.InputError
			if got := errors.As(out.Err, &ie); got != tt.wantInputErr {
				t.Errorf("got input error %v (%v), want %v", got, out.Err, tt.wantInputErr)
			}
		})
	}
}

func TestRunRendered(t *testing.T) {
	out := Run(t, gen, "count", `{"min":1,"max":3}`, nil)
	if out.Status != StatusCompleted || out.Text != "[1 2 3]" {
		t.Fatalf("got %s %q, want completed %q", out.Status, out.Text, "[1 2 3]")
	}
	if got, want := string(out.Result), `{"numbers":[1,2,3]}`; got != want {
		t.Errorf("got result %s, want %s", got, want)
	}
	if got, want := Render(t, gen, "count", out.ViewState()), "<p>3 numbers</p>"; got != want {
		t.Errorf("got completed view %q, want %q", got, want)
	}
	phases := []struct {
		state sdk.RawViewState
		want  string
	}{
		{sdk.RawViewState{Phase: sdk.PhasePreparing, Input: json.RawMessage(`{"min":4`)}, "<p>preparing from 0</p>"},
		{sdk.RawViewState{Phase: sdk.PhaseRunning, Input: json.RawMessage(`{"min":4,"max":5}`)}, "<p>running from 4</p>"},
		{sdk.RawViewState{Phase: sdk.PhaseFailed, Error: "<bad>"}, "<p>&lt;bad&gt;</p>"},
	}
	for _, p := range phases {
		if got := Render(t, gen, "count", p.state); got != p.want {
			t.Errorf("phase %s: got %q, want %q", p.state.Phase, got, p.want)
		}
	}
	failed := Run(t, gen, "count", `{"min":2,"max":1}`, nil)
	if got := Render(t, gen, "count", failed.ViewState()); !strings.Contains(got, "must not exceed") {
		t.Errorf("got failed view %q, want the error", got)
	}
	if _, err := RenderView(gen, "echo", sdk.RawViewState{Phase: sdk.PhaseRunning}); err == nil {
		t.Error("RenderView of a plain tool: got nil error, want one")
	}
}

func TestCancelWhen(t *testing.T) {
	out := Run(t, gen, "wait", `{"steps":3}`, &Options{CancelWhen: func(u sdk.ActivityUpdate) bool {
		return u.Text == "step 2"
	}})
	if out.Status != StatusCancelled || out.Text != "" {
		t.Fatalf("got %s %q, want cancelled with no text", out.Status, out.Text)
	}
	if !errors.Is(out.Err, context.Canceled) {
		t.Errorf("got err %v, want context.Canceled from the handler", out.Err)
	}
	if out.Activity.Status != "step 2" || len(out.Activity.Log) != 0 {
		t.Errorf("got activity %+v, want status %q and nothing after cancellation", out.Activity, "step 2")
	}
	if n := len(out.Updates); n != 4 || out.Updates[n-1].Text != "after cancel" {
		t.Errorf("got raw updates %v, want all four including the one after cancellation", out.Updates)
	}
	if out.SinceCancel <= 0 || out.SinceCancel > out.Elapsed {
		t.Errorf("got SinceCancel %v of %v, want within the run", out.SinceCancel, out.Elapsed)
	}
}

func TestCancelFromContext(t *testing.T) {
	select {
	case <-waiting: // left by an earlier test's call
	default:
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-waiting // the handler runs: the cancel reaches a call in flight
		cancel()
	}()
	out := Run(t, gen, "wait", `{"steps":0}`, &Options{Context: ctx})
	if out.Status != StatusCancelled {
		t.Fatalf("got %s, want cancelled", out.Status)
	}
}

func TestCallErrors(t *testing.T) {
	if _, err := Call(gen, "nope", `{}`, nil); err == nil || !strings.Contains(err.Error(), `has no tool "nope" (it has echo, count, wait)`) {
		t.Errorf("got %v, want an error listing the tools", err)
	}
	if _, err := Call(gen, "echo", make(chan int), nil); err == nil {
		t.Error("got nil error for input JSON cannot carry, want one")
	}
}

func TestGeneratedDecoderIsUsed(t *testing.T) {
	g := &sdk.Generated{Mod: testMod, Inputs: map[string]sdk.InputDecoder{
		"echo": func(data []byte) (any, error) {
			return nil, &sdk.InputError{Problems: []string{"/text: must be at most 3 characters"}}
		},
	}}
	out := Run(t, g, "echo", `{"text":"long"}`, nil)
	if want := "Tool failed: invalid input for tool echo:\n  /text: must be at most 3 characters"; out.Text != want {
		t.Errorf("got %q, want %q", out.Text, want)
	}
}

func TestCommandsAndHooks(t *testing.T) {
	opts := &Options{Workspace: "/ws"}
	msg, err := RunCommand(t, gen, "testmod.hello", `{"a":1}`, opts)
	if want := `hello /ws on 2026-01-02 ({"a":1})`; err != nil || msg != want {
		t.Errorf("RunCommand: got %q, %v, want %q", msg, err, want)
	}
	msg, err = RunSlashCommand(t, gen, "/say  many words ", opts)
	if want := "said many words"; err != nil || msg != want {
		t.Errorf("RunSlashCommand: got %q, %v, want %q", msg, err, want)
	}
	hooks := []struct {
		action sdk.Action
		want   string
	}{
		{sdk.Action{Name: sdk.ActionToolCall, Tool: "echo"}, ""},
		{sdk.Action{Name: sdk.ActionToolCall, Tool: "wait"}, "no waiting"},
		{sdk.Action{Name: sdk.ActionCommandRun, Command: "testmod.hello"}, "hello is blocked"},
		{sdk.Action{Name: sdk.ActionCommandRun, Command: "other.cmd"}, ""},
	}
	for _, h := range hooks {
		err := RunHooks(t, gen, h.action, opts)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != h.want {
			t.Errorf("RunHooks(%+v): got %q, want %q", h.action, got, h.want)
		}
	}
}

func TestActivate(t *testing.T) {
	if err := Activate(t, gen, nil); err != nil {
		t.Errorf("mod without Activate: got %v, want nil", err)
	}
	var got string
	g := &sdk.Generated{Mod: sdk.Mod{Activate: func(ctx context.Context, env *sdk.Env) error {
		got = env.Today + " " + env.Session.Workspace
		return errors.New("no config")
	}}}
	err := Activate(t, g, &Options{Workspace: "/ws"})
	if err == nil || err.Error() != "no config" || got != "2026-01-02 " {
		t.Errorf("got %v and env %q, want the activation error and the pinned date with no session", err, got)
	}
}

func TestRunWithHooks(t *testing.T) {
	out := Run(t, gen, "wait", `{"steps":1}`, &Options{Hooks: true})
	if want := "Tool failed: blocked by a hook of mod testmod: no waiting"; out.Status != StatusFailed || out.Text != want {
		t.Errorf("got %s %q, want failed %q", out.Status, out.Text, want)
	}
	if len(out.Updates) != 0 {
		t.Errorf("got updates %v, want the handler not run", out.Updates)
	}
	if out := Run(t, gen, "echo", `{"text":"x"}`, &Options{Hooks: true}); out.Status != StatusCompleted {
		t.Errorf("allowed tool: got %s %q, want completed", out.Status, out.Text)
	}
	if out := Run(t, gen, "wait", `{"steps":"x"}`, &Options{Hooks: true}); out.Status != StatusFailed || !strings.Contains(out.Text, "invalid input") {
		t.Errorf("invalid input: got %s %q, want it refused before the hooks", out.Status, out.Text)
	}
}

func TestEnvDefaults(t *testing.T) {
	env := Env(nil)
	if env.Logger == nil || env.Today != DefaultToday || env.Session.ID != DefaultSessionID {
		t.Fatalf("got %+v, want a logger, DefaultToday and DefaultSessionID", env)
	}
	env.Logger.Info("discarded") // must not panic
}

// The rules a mod process applies hold under modtest too.
func TestHostRules(t *testing.T) {
	if _, err := RunCommand(t, gen, "testmod.panic", "", nil); err == nil || err.Error() != "command testmod.panic panicked: command boom" {
		t.Errorf("panicking command: got %v, want the recovered panic naming the command", err)
	}
	_, err := RunCommand(t, gen, "testmod.hello", "", &Options{MaxResultBytes: 10})
	if want := "command testmod.hello returned 23 bytes, over the 10-byte message limit; it should return a short message"; err == nil || err.Error() != want {
		t.Errorf("oversized message: got %v, want %q", err, want)
	}
	msg, err := RunSlashCommand(t, gen, "say \t spaced out \n", nil)
	if err != nil || msg != "said spaced out" {
		t.Errorf("slash text: got %q, %v; want it trimmed", msg, err)
	}
	out := Run(t, gen, "echo", `{"text":"hi"}`, &Options{MaxResultBytes: 20})
	if want := "Tool failed: tool echo returned 57 bytes, over the 20-byte result limit; it should return a compact result"; out.Status != StatusFailed || out.Text != want {
		t.Errorf("oversized result: got %s %q, want failed %q", out.Status, out.Text, want)
	}
	if out := Run(t, gen, "echo", `{"text":"hi"}`, nil); out.Status != StatusCompleted {
		t.Errorf("default cap: got %s %q, want completed", out.Status, out.Text)
	}
}

// A tool missing its handler or its text fails in the model's words,
// naming no Go field.
func TestRunMissingHandler(t *testing.T) {
	type in struct{}
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[in]{Name: "plain", Description: "Has no handler."},
		sdk.RenderedTool[in, in]{Name: "rendered", Description: "Has no handler."},
		sdk.RenderedTool[in, in]{Name: "textless", Description: "Has no text.",
			Run: func(*sdk.ToolContext, in) (in, error) { return in{}, nil }},
	}}})}
	for tool, want := range map[string]string{
		"plain":    "Tool failed: tool plain has no handler in the mod",
		"rendered": "Tool failed: tool rendered has no handler in the mod",
		"textless": "Tool failed: tool textless has no text for the model in the mod",
	} {
		if out := Run(t, g, tool, `{}`, nil); out.Status != StatusFailed || out.Text != want {
			t.Errorf("%s: got %s %q, want failed %q", tool, out.Status, out.Text, want)
		}
	}
}

// badge decodes itself with strconv and wraps its error, as authors'
// types do.
type badge int

func (b *badge) UnmarshalText(text []byte) error {
	n, err := strconv.ParseInt(string(text), 10, 64)
	if err != nil {
		return fmt.Errorf("badge: %w", err)
	}
	*b = badge(n)
	return nil
}

// TestOwnDecoderWords: a type's own decoder that fails with strconv's or
// encoding/json's error reaches the model in JSON terms, at its property.
func TestOwnDecoderWords(t *testing.T) {
	type in struct {
		Name  string `json:"name"`
		Badge badge  `json:"badge"`
	}
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "owned", DisplayName: "Owned", Description: "Decodes its own."},
		AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[in]{
			Name: "owned_greet", Description: "Greets.",
			Run: func(tc *sdk.ToolContext, in in) (sdk.Result, error) {
				return sdk.Result{Text: in.Name}, nil
			},
		}}},
	})}
	for _, tt := range []struct{ input, want string }{
		{`{"name":"Ada","badge":"John"}`, `/badge: must be an integer, got "John"`},
		{`{"name":5,"badge":"7"}`, "/name: must be a string, got a number"},
	} {
		out := Run(t, g, "owned_greet", tt.input, nil)
		if want := "Tool failed: invalid input for tool owned_greet:\n  " + tt.want; out.Text != want {
			t.Errorf("%s: got %q, want %q", tt.input, out.Text, want)
		}
	}
}

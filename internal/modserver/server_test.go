package modserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/sdk"
)

type in struct {
	N int `json:"n"`
}

func (i in) Validate() error {
	if i.N < 0 {
		return errors.New("/n: must not be negative")
	}
	return nil
}

var activations atomic.Int32

// kept receives the ToolContext of m_rendered_panics.
var kept = make(chan *sdk.ToolContext, 1)

var gen = &sdk.Generated{
	Manifest: []byte(`{"id":"m"}`),
	Inputs: map[string]sdk.InputDecoder{
		"m_outputs": func(data []byte) (any, error) { return in{N: 1}, nil },
		"m_decoder_panics": func(data []byte) (any, error) {
			panic("decoder bug")
		},
	},
	Mod: sdk.Mod{
		Metadata: sdk.Metadata{ID: "m"},
		AI: sdk.AI{Tools: []sdk.Tool{
			sdk.PlainTool[in]{Name: "m_outputs", Run: func(tc *sdk.ToolContext, i in) (sdk.Result, error) {
				tc.Title("t")
				tc.Log("l")
				return sdk.Result{Text: "x", Output: &sdk.Output{MimeType: "text/plain", Content: "a"},
					Extra: []sdk.Output{{MimeType: "text/markdown", Content: "b", URI: "file:///b.md"}}}, nil
			}},
			sdk.PlainTool[in]{Name: "m_decoder_panics", Run: func(tc *sdk.ToolContext, i in) (sdk.Result, error) {
				return sdk.Text("unreachable"), nil
			}},
			sdk.PlainTool[in]{Name: "m_logs", Run: func(tc *sdk.ToolContext, i in) (sdk.Result, error) {
				tc.Logger().Info("hello")
				return sdk.Text("logged"), nil
			}},
			sdk.PlainTool[in]{Name: "m_panics", Run: func(tc *sdk.ToolContext, i in) (sdk.Result, error) {
				panic("oh no")
			}},
			sdk.PlainTool[in]{Name: "m_waits", Run: func(tc *sdk.ToolContext, i in) (sdk.Result, error) {
				tc.Status("waiting")
				<-tc.Done()
				return sdk.Result{}, tc.Err()
			}},
			sdk.RenderedTool[in, in]{Name: "m_rendered_panics",
				Run: func(tc *sdk.ToolContext, i in) (in, error) {
					kept <- tc
					panic("rendered bug")
				},
				View: sdk.View[in, in]{Text: func(o in) string { return "" }},
			},
			sdk.RenderedTool[in, in]{Name: "m_rendered",
				Run: func(tc *sdk.ToolContext, i in) (in, error) { return in{N: 2 * i.N}, nil },
				View: sdk.View[in, in]{
					Text:   func(o in) string { return "doubled" },
					Render: func(s sdk.ViewState[in, in]) string { panic("view bug in " + string(s.Phase)) },
				},
			},
		}},
		Commands: []sdk.Command{{ID: "m.panics", Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			panic("command bug")
		}}, {ID: "m.empty"}}, // a Run only nil at run time, such as an unset func variable, gets past modgen
		SlashCommands: []sdk.SlashCommand{{ID: "echo", Run: func(ctx context.Context, env *sdk.Env, text string) (string, error) {
			return "<" + text + ">", nil
		}}, {ID: "empty"}},
		Hooks: []sdk.Hook{{BeforeAction: sdk.ActionToolCall, Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
			panic("hook bug")
		}}},
		Activate: func(ctx context.Context, env *sdk.Env) error {
			activations.Add(1)
			return errors.New("no config")
		},
	},
}

func call(t *testing.T, s *modserver.Server, req *modapi.CallRequest) *modapi.CallResponse {
	t.Helper()
	resp, err := s.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("CallTool(%s): %v", req.Tool, err)
	}
	return resp
}

func TestCallTool(t *testing.T) {
	s := modserver.New(gen, nil)
	tests := []struct {
		name, tool, input string
		want              modapi.Outcome
	}{
		{"outputs in order", "m_outputs", `{}`, modapi.Outcome{Status: modapi.StatusCompleted, Text: "x", Outputs: []sdk.Output{
			{MimeType: "text/plain", Content: "a"}, {MimeType: "text/markdown", Content: "b", URI: "file:///b.md"}}}},
		{"rendered", "m_rendered", `{"n":2}`, modapi.Outcome{Status: modapi.StatusCompleted, Text: "doubled", Result: json.RawMessage(`{"n":4}`)}},
		{"unknown tool", "m_nope", `{}`, modapi.Outcome{Status: modapi.StatusFailed, Error: "mod m has no tool m_nope"}},
		{"json fallback problem", "m_rendered", `{"n":"x"}`, modapi.Outcome{Status: modapi.StatusFailed}},
		{"Validate problem", "m_rendered", `{"n":-1}`, modapi.Outcome{Status: modapi.StatusFailed,
			Error: "invalid input: /n: must not be negative", Problems: []string{"/n: must not be negative"}}},
		{"handler panic", "m_panics", `{}`, modapi.Outcome{Status: modapi.StatusFailed, Error: "tool m_panics panicked: oh no"}},
		{"decoder panic", "m_decoder_panics", `{}`, modapi.Outcome{Status: modapi.StatusFailed, Error: "input decoder of m_decoder_panics panicked: decoder bug"}},
	}
	for _, tt := range tests {
		o := call(t, s, &modapi.CallRequest{Tool: tt.tool, Input: json.RawMessage(tt.input)}).Outcome
		o.Cause = nil
		if tt.name == "json fallback problem" {
			if o.Status != modapi.StatusFailed || len(o.Problems) != 1 || !strings.HasPrefix(o.Error, "invalid input: ") {
				t.Errorf("%s: got %+v, want one problem", tt.name, o)
			}
			continue
		}
		if !reflect.DeepEqual(o, tt.want) {
			t.Errorf("%s: got %+v, want %+v", tt.name, o, tt.want)
		}
	}
}

func TestCallToolActivity(t *testing.T) {
	s := modserver.New(gen, nil)
	want := []sdk.ActivityUpdate{{Kind: sdk.ActivityTitle, Text: "t"}, {Kind: sdk.ActivityLog, Text: "l"}}
	if got := call(t, s, &modapi.CallRequest{Tool: "m_outputs"}).Activity; !reflect.DeepEqual(got, want) {
		t.Errorf("buffered: got %v, want %v", got, want)
	}
	var live []sdk.ActivityUpdate
	resp := call(t, s, &modapi.CallRequest{Tool: "m_outputs", OnActivity: func(u sdk.ActivityUpdate) { live = append(live, u) }})
	if !reflect.DeepEqual(live, want) || resp.Activity != nil {
		t.Errorf("live: got %v and %v in the response, want %v and none", live, resp.Activity, want)
	}
}

func TestCallToolCancelled(t *testing.T) {
	s := modserver.New(gen, nil)
	ctx, cancel := context.WithCancel(context.Background())
	running := make(chan bool, 1)
	resp, err := s.CallTool(ctx, &modapi.CallRequest{Tool: "m_waits", Input: json.RawMessage(`{}`), CallID: "c1",
		OnActivity: func(sdk.ActivityUpdate) {
			r, _ := s.CallRunning(context.Background(), &modapi.CallRunningRequest{CallID: "c1"})
			running <- r.Running
			cancel()
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !<-running {
		t.Error("CallRunning while the handler ran: got false, want true")
	}
	if o := resp.Outcome; o.Status != modapi.StatusCancelled || !errors.Is(o.Cause, context.Canceled) {
		t.Errorf("got %+v, want cancelled with the handler's context.Canceled", o)
	}
	if r, _ := s.CallRunning(context.Background(), &modapi.CallRunningRequest{CallID: "c1"}); r.Running {
		t.Error("CallRunning after the handler returned: got true, want false")
	}
}

func TestResultCap(t *testing.T) {
	s := modserver.New(gen, nil)
	o := call(t, s, &modapi.CallRequest{Tool: "m_outputs", MaxResultBytes: 20}).Outcome
	if want := "tool m_outputs returned 38 bytes, over the 20-byte result limit; it should return a compact result"; o.Status != modapi.StatusFailed || o.Error != want {
		t.Errorf("got %+v, want failed with %q", o, want)
	}
}

func TestRecoveredPanics(t *testing.T) {
	s := modserver.New(gen, nil)
	ctx := context.Background()
	c, _ := s.RunCommand(ctx, &modapi.CommandRequest{ID: "m.panics"})
	if want := "command m.panics panicked: command bug"; c.Error != want {
		t.Errorf("command: got %+v, want error %q", c, want)
	}
	h, _ := s.BeforeAction(ctx, &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "m_outputs"}})
	if want := "hook before tool.call panicked: hook bug"; h.Refusal != want {
		t.Errorf("hook: got %+v, want refusal %q", h, want)
	}
	v, _ := s.RenderView(ctx, &modapi.ViewRequest{Tool: "m_rendered", State: sdk.RawViewState{Phase: sdk.PhaseRunning}})
	if want := "view of m_rendered panicked: view bug in running"; !v.HasView || v.Error != want {
		t.Errorf("view: got %+v, want error %q", v, want)
	}
}

func TestCommands(t *testing.T) {
	s := modserver.New(gen, nil)
	ctx := context.Background()
	tests := []struct {
		req              modapi.CommandRequest
		wantMsg, wantErr string
	}{
		{modapi.CommandRequest{ID: "echo", Slash: true, Text: "  two  words \n"}, "<two  words>", ""},
		{modapi.CommandRequest{ID: "echo", Slash: true, Text: "abcd", MaxMessageBytes: 5}, "", "slash command /echo returned 6 bytes, over the 5-byte message limit; it should return a short message"},
		{modapi.CommandRequest{ID: "nope", Slash: true}, "", "mod m has no slash command nope"},
		{modapi.CommandRequest{ID: "nope"}, "", "mod m has no command nope"},
		{modapi.CommandRequest{ID: "m.empty"}, "", "command m.empty has no handler in the mod"},
		{modapi.CommandRequest{ID: "empty", Slash: true}, "", "slash command /empty has no handler in the mod"},
	}
	for _, tt := range tests {
		resp, err := s.RunCommand(ctx, &tt.req)
		if err != nil || resp.Message != tt.wantMsg || resp.Error != tt.wantErr {
			t.Errorf("%+v: got %+v, %v; want message %q, error %q", tt.req, resp, err, tt.wantMsg, tt.wantErr)
		}
	}
}

func TestActivateRunsOnce(t *testing.T) {
	s := modserver.New(gen, nil)
	before := activations.Load()
	for range 2 {
		resp, err := s.Activate(context.Background(), &modapi.ActivateRequest{Today: "2026-01-02"})
		if err != nil || resp.Error != "no config" {
			t.Errorf("got %+v, %v; want the activation error", resp, err)
		}
	}
	if n := activations.Load() - before; n != 1 {
		t.Errorf("Activate ran %d times, want once", n)
	}
}

func TestDescribe(t *testing.T) {
	resp, err := modserver.New(gen, nil).Describe(context.Background(), &modapi.DescribeRequest{})
	want := []string{"m_decoder_panics", "m_outputs"}
	if err != nil || string(resp.Manifest) != `{"id":"m"}` || !reflect.DeepEqual(resp.ValidatedTools, want) {
		t.Errorf("got %+v, %v; want the manifest and %v", resp, err, want)
	}
}

// A handler that panics still has its ToolContext ended: its context is
// cancelled and later activity goes nowhere.
func TestPanicEndsToolContext(t *testing.T) {
	s := modserver.New(gen, nil)
	var late atomic.Bool
	resp := call(t, s, &modapi.CallRequest{Tool: "m_rendered_panics", Input: json.RawMessage(`{}`),
		OnActivity: func(sdk.ActivityUpdate) { late.Store(true) }})
	if want := "tool m_rendered_panics panicked: rendered bug"; resp.Outcome.Error != want {
		t.Errorf("got %+v, want %q", resp.Outcome, want)
	}
	tc := <-kept
	if tc.Err() == nil {
		t.Error("got the handler's context live after the call, want it cancelled")
	}
	tc.Log("late")
	if late.Load() {
		t.Error("got activity after the call ended, want it dropped")
	}
}

func TestHandlerLoggerNamesToolAndCall(t *testing.T) {
	var buf bytes.Buffer
	s := modserver.New(gen, slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime})))
	call(t, s, &modapi.CallRequest{Tool: "m_logs", Input: json.RawMessage(`{}`), CallID: "c7"})
	if got, want := buf.String(), "level=INFO msg=hello tool=m_logs call=c7\n"; got != want {
		t.Errorf("got log %q, want %q", got, want)
	}
}

func dropTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// TestCheckedInputDecodedOnce checks that a call after its input check in
// the same process runs with the input the check decoded: its decoder runs
// once, not twice.
func TestCheckedInputDecodedOnce(t *testing.T) {
	var decoded atomic.Int32
	g := &sdk.Generated{
		Manifest: []byte(`{"id":"d"}`),
		Inputs: map[string]sdk.InputDecoder{"d_double": func(data []byte) (any, error) {
			decoded.Add(1)
			var i in
			err := json.Unmarshal(data, &i)
			return i, err
		}},
		Mod: sdk.Mod{Metadata: sdk.Metadata{ID: "d"}, AI: sdk.AI{Tools: []sdk.Tool{
			sdk.PlainTool[in]{Name: "d_double", Run: func(_ *sdk.ToolContext, i in) (sdk.Result, error) {
				return sdk.Text(strconv.Itoa(2 * i.N)), nil
			}},
		}}},
	}
	s := modserver.New(g, nil)
	input := json.RawMessage(`{"n":21}`)
	check, err := s.CheckInput(context.Background(), &modapi.CheckRequest{Tool: "d_double", Input: input})
	if err != nil || len(check.Problems) > 0 || check.Error != "" {
		t.Fatalf("CheckInput: got %+v, %v; want it to pass", check, err)
	}
	if check.Decoded != (in{N: 21}) {
		t.Fatalf("CheckInput: got Decoded %#v, want %#v", check.Decoded, in{N: 21})
	}
	o := call(t, s, &modapi.CallRequest{Tool: "d_double", Input: input, Decoded: check.Decoded}).Outcome
	if o.Status != modapi.StatusCompleted || o.Text != "42" {
		t.Errorf("CallTool with Decoded: got %s %q, want completed \"42\"", o.Status, o.Text)
	}
	if n := decoded.Load(); n != 1 {
		t.Errorf("the decoder ran %d times, want 1", n)
	}
	if o := call(t, s, &modapi.CallRequest{Tool: "d_double", Input: input}).Outcome; o.Text != "42" || decoded.Load() != 2 {
		t.Errorf("CallTool without Decoded: got %q after %d decodes, want \"42\" after 2", o.Text, decoded.Load())
	}
	bad, err := s.CheckInput(context.Background(), &modapi.CheckRequest{Tool: "d_double", Input: json.RawMessage(`{"n":-1}`)})
	if err != nil || len(bad.Problems) == 0 || bad.Decoded != nil {
		t.Errorf("CheckInput of a negative n: got %+v, %v; want problems and no Decoded", bad, err)
	}
}

// TestCheckInputAllocs checks that checking input that passes costs the
// decoder's allocations and the response's, nothing more.
func TestCheckInputAllocs(t *testing.T) {
	s := modserver.New(gen, nil)
	ctx := context.Background()
	req := &modapi.CheckRequest{Tool: "m_outputs", Input: json.RawMessage(`{}`)}
	decode := testing.AllocsPerRun(100, func() {
		if _, err := s.Decode(req.Tool, req.Input); err != nil {
			t.Fatal(err)
		}
	})
	check := testing.AllocsPerRun(100, func() {
		if resp, err := s.CheckInput(ctx, req); err != nil || resp.Decoded == nil {
			t.Fatal(resp, err)
		}
	})
	if check > decode+1 {
		t.Errorf("got %v allocations a check, want at most Decode's %v and the response", check, decode)
	}
}

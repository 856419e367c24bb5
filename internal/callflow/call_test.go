package callflow

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/approval"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// fakeMod is a mod whose answers a test scripts; it and fakeEnv record
// every step the pipeline takes in ran.
type fakeMod struct {
	modapi.Mod // the methods the pipeline never calls
	ran        *[]string
	problems   []string
	reason     string
	// outcomes are the handler's runs' outcomes, in order.
	outcomes []modapi.Outcome
	inputs   []string
}

func (m *fakeMod) CheckInput(_ context.Context, req *modapi.CheckRequest) (*modapi.CheckResponse, error) {
	*m.ran = append(*m.ran, "check")
	return &modapi.CheckResponse{Problems: m.problems}, nil
}

func (m *fakeMod) NeedsApproval(context.Context, *modapi.ApprovalRequest) (*modapi.ApprovalResponse, error) {
	*m.ran = append(*m.ran, "rule")
	return &modapi.ApprovalResponse{Reason: m.reason}, nil
}

func (m *fakeMod) CallTool(_ context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	*m.ran = append(*m.ran, "handle")
	m.inputs = append(m.inputs, string(req.Input))
	o := m.outcomes[0]
	m.outcomes = m.outcomes[1:]
	return &modapi.CallResponse{Outcome: o}, nil
}

// fakeEnv is an environment whose mod is always there, unless modErr;
// it bounds and runs the handler as Local does.
type fakeEnv struct {
	Local
	mod      *fakeMod
	modErr   error
	validate bool // judge the input in the mod's place, adding a default
	failures []error
	steps    []string
}

func (e *fakeEnv) Mod(context.Context) (modapi.Mod, error) {
	*e.mod.ran = append(*e.mod.ran, "mod")
	return e.mod, e.modErr
}

func (e *fakeEnv) Failure(_ context.Context, err error) Ending {
	e.failures = append(e.failures, err)
	if errors.Is(err, errClosed) {
		return Ending{Abort: err}
	}
	return Failed("env: "+err.Error(), err)
}

func (e *fakeEnv) Validate(input json.RawMessage) ([]string, json.RawMessage, bool) {
	if !e.validate {
		return nil, nil, false
	}
	*e.mod.ran = append(*e.mod.ran, "validate")
	if string(input) == `{"bad":true}` {
		return []string{"/bad: not allowed"}, nil, true
	}
	return nil, json.RawMessage(`{"default":1}`), true
}

func (e *fakeEnv) Step(ctx context.Context, step Step, _ string) (context.Context, func(StepEnd)) {
	return ctx, func(se StepEnd) {
		if se.Refused {
			e.steps = append(e.steps, "refused")
		}
	}
}

var errClosed = errors.New("closed")

func completed(text string) modapi.Outcome {
	return modapi.Outcome{Status: modapi.StatusCompleted, Text: text}
}

// pipelineCase is one call through the pipeline: what its fields set up,
// the steps it takes and how it ends.
type pipelineCase struct {
	name  string
	setup func(c *Call, e *fakeEnv)
	// ran are the steps taken, in order; status and text the ending.
	ran          string
	status, text string
}

var askOnce = []modapi.Outcome{
	{Status: modapi.StatusAsking, Questions: []modapi.Question{{Kind: modapi.AskForm, Key: "q"}}},
	completed("answered"),
}

func hooksRefusing(refusal string, err error) func(context.Context, *modapi.ActionRequest) (string, error) {
	return func(context.Context, *modapi.ActionRequest) (string, error) { return refusal, err }
}

func approver(ok bool, err error) approval.Approver {
	return func(context.Context, *approval.Request) (bool, error) { return ok, err }
}

var pipelineCases = []pipelineCase{
	{name: "the handler alone", ran: "mod handle", status: "completed", text: "done"},
	{name: "hooks see checked input", setup: func(c *Call, _ *fakeEnv) { c.Hooks = hooksRefusing("", nil) },
		ran: "mod check handle", status: "completed", text: "done"},
	{name: "invalid input", setup: func(c *Call, e *fakeEnv) { c.Hooks = hooksRefusing("", nil); e.mod.problems = []string{"/a: bad"} },
		ran: "mod check", status: "failed", text: "Tool failed: " + words.InvalidInput("t", []string{"/a: bad"})},
	{name: "checked in the mod's place", setup: func(c *Call, e *fakeEnv) { e.validate = true },
		ran: "mod validate handle", status: "completed", text: "done"},
	{name: "refused in the mod's place", setup: func(c *Call, e *fakeEnv) { e.validate = true; c.Input = json.RawMessage(`{"bad":true}`) },
		ran: "mod validate", status: "failed", text: "Tool failed: " + words.InvalidInput("t", []string{"/bad: not allowed"})},
	{name: "hook refusal", setup: func(c *Call, _ *fakeEnv) { c.Hooks = hooksRefusing("blocked", nil) },
		ran: "mod check", status: "failed", text: "Tool failed: blocked"},
	{name: "hook error", setup: func(c *Call, _ *fakeEnv) { c.Hooks = hooksRefusing("", errors.New("gone")) },
		ran: "mod check", status: "failed", text: "Tool failed: env: gone"},
	{name: "no approval needed", setup: func(c *Call, _ *fakeEnv) { c.Approval = true },
		ran: "mod rule handle", status: "completed", text: "done"},
	{name: "approved, and the mod got again", setup: func(c *Call, e *fakeEnv) { c.Approval, e.mod.reason, c.Approver = true, "why", approver(true, nil) },
		ran: "mod rule mod handle", status: "completed", text: "done"},
	{name: "denied", setup: func(c *Call, e *fakeEnv) { c.Approval, e.mod.reason, c.Approver = true, "why", approver(false, nil) },
		ran: "mod rule", status: "denied", text: words.Denied("t", "why")},
	{name: "nobody to ask", setup: func(c *Call, e *fakeEnv) { c.Approval, e.mod.reason = true, "why" },
		ran: "mod rule", status: "failed", text: "Tool failed: " + words.NoApprover("t", "why")},
	{name: "approval asked later", setup: func(c *Call, e *fakeEnv) {
		c.Approval, e.mod.reason = true, "why"
		c.AskApproval = func(context.Context, string) (string, error) { return "", ErrAskLater }
	}, ran: "mod rule", status: "asking"},
	{name: "client tool", setup: func(c *Call, _ *fakeEnv) {
		c.Tool.Runs = manifest.RunsEither
		c.Client = func(context.Context, json.RawMessage) (sdk.ClientAnswer, error) {
			return sdk.ClientAnswer{Text: "from the client"}, nil
		}
	}, ran: "mod check", status: "completed", text: "from the client"},
	{name: "client tool without a client", setup: func(c *Call, _ *fakeEnv) { c.Tool.Runs = manifest.RunsInClient },
		ran: "", status: "failed", text: "Tool failed: " + words.NoClient("t")},
	{name: "a question, then the mod got again", setup: func(c *Call, e *fakeEnv) {
		e.mod.outcomes = askOnce
		c.Questions = answerEach{ran: e.mod.ran}
	}, ran: "mod handle answer mod handle", status: "completed", text: "answered"},
	{name: "client actions refused", setup: func(c *Call, e *fakeEnv) {
		e.mod.outcomes = []modapi.Outcome{{Status: modapi.StatusCompleted, Text: "done", Actions: []sdk.ClientAction{{Kind: "k"}}}}
		c.CheckActions = func([]sdk.ClientAction) string { return "bad action" }
	}, ran: "mod handle", status: "failed", text: "Tool failed: bad action"},
	{name: "the mod does not start", setup: func(c *Call, e *fakeEnv) { e.modErr = errors.New("no binary") },
		ran: "mod", status: "failed", text: "Tool failed: env: no binary"},
}

// Each step of the pipeline runs in its order, only when the call needs
// it, and each ends the call as the environment would report it.
func TestCallRun(t *testing.T) {
	for _, tt := range pipelineCases {
		t.Run(tt.name, func(t *testing.T) {
			var ran []string
			e := &fakeEnv{mod: &fakeMod{ran: &ran, outcomes: []modapi.Outcome{completed("done")}}}
			c := &Call{Env: e, ModID: "m", Tool: &manifest.Tool{Name: "t", Runs: manifest.RunsInMod}, Input: json.RawMessage(`{}`)}
			if tt.setup != nil {
				tt.setup(c, e)
			}
			out := c.Run(context.Background())
			if got := strings.Join(ran, " "); got != tt.ran {
				t.Errorf("ran %q, want %q", got, tt.ran)
			}
			if string(out.Status) != tt.status || out.Text != tt.text {
				t.Errorf("got %s %q, want %s %q", out.Status, out.Text, tt.status, tt.text)
			}
		})
	}
}

// What the pipeline hands on: the input with the environment's defaults,
// the approval reason, a completed call's actions, and the cause of an
// invalid input.
func TestCallRunCarries(t *testing.T) {
	var ran []string
	act := []sdk.ClientAction{{Kind: "k", Params: json.RawMessage(`{}`)}}
	e := &fakeEnv{mod: &fakeMod{ran: &ran, reason: "why", outcomes: []modapi.Outcome{{Status: modapi.StatusCompleted, Text: "done", Actions: act}}}, validate: true}
	c := &Call{Env: e, Tool: &manifest.Tool{Name: "t", Runs: manifest.RunsInMod}, Input: json.RawMessage(`{}`),
		Approval: true, Approver: approver(true, nil), CheckActions: func([]sdk.ClientAction) string { return "" }}
	out := c.Run(context.Background())
	if out.ApprovalReason != "why" || len(out.Actions) != 1 || !out.Handled || e.mod.inputs[0] != `{"default":1}` {
		t.Errorf("got reason %q, %d actions, handled %v, input %s; want why, 1, true, the defaults", out.ApprovalReason, len(out.Actions), out.Handled, e.mod.inputs)
	}

	ran = nil
	e = &fakeEnv{mod: &fakeMod{ran: &ran, problems: []string{"/a: bad"}}}
	c = &Call{Env: e, Tool: &manifest.Tool{Name: "t", Runs: manifest.RunsInMod}, Hooks: hooksRefusing("", nil)}
	out = c.Run(context.Background())
	var ie *sdk.InputError
	if !errors.As(out.Cause, &ie) || len(e.steps) != 1 {
		t.Errorf("got cause %v, refusals %q; want an *sdk.InputError, one refusal", out.Cause, e.steps)
	}
}

// A call the environment aborts (the host closed) has no ending.
func TestCallRunAborted(t *testing.T) {
	var ran []string
	e := &fakeEnv{mod: &fakeMod{ran: &ran}, modErr: errClosed}
	out := (&Call{Env: e, Tool: &manifest.Tool{Name: "t", Runs: manifest.RunsInMod}}).Run(context.Background())
	if !errors.Is(out.Abort, errClosed) || out.Status != "" {
		t.Errorf("got %+v, want aborted", out.Ending)
	}
}

// answerEach answers every question a run asks, noting "answer".
type answerEach struct{ ran *[]string }

func (answerEach) Answers() []modapi.Answered { return nil }

func (a answerEach) Ask(_ context.Context, given []modapi.Answered, asked []modapi.Question) ([]modapi.Answered, Ending, bool) {
	*a.ran = append(*a.ran, "answer")
	return append(given, modapi.Answered{Question: asked[0]}), Ending{}, false
}

func (answerEach) CanAskNow(before []modapi.QuestionKind) []modapi.QuestionKind { return before }

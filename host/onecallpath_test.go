package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/host/testdata/mods/approving"
	"github.com/modkit/modkit/host/testdata/mods/clientside"
	"github.com/modkit/modkit/host/testdata/mods/crashy"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// stepCase is one tool call whose outcome a step of the call pipeline
// decides: hooks, approval, a client tool or client actions.
type stepCase struct {
	name, tool, input string
	// approver answers for the person, nil for none: the same function
	// under a host and under modtest, which share its type.
	approver host.Approver
	// client, when set, is the client application's one answer.
	client *sdk.ClientAnswer
	// want is what the model reads; prefix accepts any text starting with
	// it. status is the outcome's status; actions, how many client
	// actions a completed call returns.
	want    string
	prefix  bool
	status  string
	actions int
}

var (
	approve = func(context.Context, *host.ApprovalRequest) (bool, error) { return true, nil }
	deny    = func(context.Context, *host.ApprovalRequest) (bool, error) { return false, nil }
	// tell fails, saying what it was shown.
	tell = func(_ context.Context, req *host.ApprovalRequest) (bool, error) {
		return false, fmt.Errorf("asked %q about %s", req.Question(), req.Input)
	}
)

var stepCases = []stepCase{
	{name: "approved", tool: "approving_always", input: `{}`, approver: approve, want: "ran always", status: "completed"},
	{name: "denied", tool: "approving_always", input: `{}`, approver: deny,
		want: "The person declined this call, so approving_always did not run. They were asked: Run approving_always, which changes nothing", status: "denied"},
	{name: "approver fails", tool: "clientside_erase", input: `{"element":"x"}`, approver: tell, client: &sdk.ClientAnswer{Text: "erased"},
		want:   `Tool failed: approval for tool clientside_erase could not be asked: asked "clientside_erase, which may delete or overwrite, needs your approval: Erase x from the screen" about {"element":"x"}`,
		status: "failed"},
	{name: "no approver", tool: "approving_always", input: `{}`, want: "Tool failed: tool approving_always needs a person's approval", prefix: true, status: "failed"},
	{name: "approval of invalid input", tool: "approving_guarded", input: `{"reason":5}`, approver: approve,
		want: "Tool failed: invalid input for tool approving_guarded:\n  /reason: ", prefix: true, status: "failed"},
	{name: "approval rule fails", tool: "approving_guarded", input: `{"reason":"r","fail":"rule broke"}`, approver: approve,
		want: "Tool failed: ", prefix: true, status: "failed"},
	{name: "hook refuses before approval", tool: "approving_guarded", input: `{"reason":"r","blocked":true}`, approver: approve,
		want: "Tool failed: blocked by a hook of mod approving: ", prefix: true, status: "failed"},
	{name: "client tool answered", tool: "clientside_pick", input: `{"choices":["a","b"]}`, client: &sdk.ClientAnswer{Text: "a"}, want: "a", status: "completed"},
	{name: "client tool fails", tool: "clientside_pick", input: `{"choices":["a"]}`, client: &sdk.ClientAnswer{Error: "no screen"}, want: "Tool failed: no screen", status: "failed"},
	{name: "client tool without a client", tool: "clientside_pick", input: `{"choices":["a"]}`, want: "Tool failed: ", prefix: true, status: "failed"},
	{name: "client tool's invalid input", tool: "clientside_pick", input: `{"choices":[]}`, client: &sdk.ClientAnswer{Text: "a"},
		want: "Tool failed: invalid input for tool clientside_pick:\n  /choices: ", prefix: true, status: "failed"},
	{name: "client tool's hook refusal", tool: "clientside_pick", input: `{"choices":["forbidden"]}`, client: &sdk.ClientAnswer{Text: "a"},
		want: "Tool failed: blocked by a hook of mod clientside: forbidden is not a choice", status: "failed"},
	{name: "client tool denied", tool: "clientside_erase", input: `{"element":"x"}`, approver: deny, client: &sdk.ClientAnswer{Text: "erased"},
		want: "The person declined this call, so clientside_erase did not run. They were asked: Erase x from the screen", status: "denied"},
	{name: "client tool approved", tool: "clientside_erase", input: `{"element":"x"}`, approver: approve, client: &sdk.ClientAnswer{Text: "erased"},
		want: "erased", status: "completed"},
	{name: "typed client result refused", tool: "clientside_measure", input: `{"element":"x"}`, client: &sdk.ClientAnswer{Text: "m", Result: json.RawMessage(`{"width":-1}`)},
		want: "Tool failed: ", prefix: true, status: "failed"},
	{name: "client actions", tool: "crashy_act", input: `{"returned":[{"kind":"mark","params":{"line":2}}]}`, want: "acted", status: "completed", actions: 1},
	{name: "client action with bad params", tool: "crashy_act", input: `{"returned":[{"kind":"mark","params":{"line":0}}]}`,
		want: "Tool failed: ", prefix: true, status: "failed"},
	{name: "client action of an undeclared kind", tool: "crashy_act", input: `{"acted":[{"kind":"nope","params":{}}]}`,
		want: "Tool failed: ", prefix: true, status: "failed"},
	{name: "client actions of a failed call", tool: "approving_reveal", input: `{"secret":"s","fail":true}`, approver: approve,
		want: "Tool failed: failed after acting", status: "failed"},
	{name: "client actions after approval", tool: "approving_reveal", input: `{"secret":"s"}`, approver: approve, status: "completed", actions: 1, want: "", prefix: true},
}

// stepOutcome is what a call's outcome shows, wherever it ran: reason
// is what the person was asked; actionsJSON the client actions, as JSON.
type stepOutcome struct {
	text, status string
	actions      int
	reason       string
	actionsJSON  string
}

func newStepOutcome(text string, status string, reason string, actions []sdk.ClientAction) stepOutcome {
	data, _ := json.Marshal(actions)
	return stepOutcome{text, status, len(actions), reason, string(data)}
}

func stepViaHost(t *testing.T, h *testHost, c stepCase) stepOutcome {
	t.Helper()
	req := &host.CallRequest{Tool: c.tool, Input: json.RawMessage(c.input), Session: session(t)}
	req.Approver = c.approver
	if c.client != nil {
		req.Client = host.ClientHandlers{c.tool: func(call *host.ClientCall) { call.Reply(*c.client) }}
	}
	res, err := h.Call(context.Background(), req)
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	return newStepOutcome(res.Text, string(res.Status), res.ApprovalReason, res.Actions)
}

func stepViaModtest(t *testing.T, c stepCase) stepOutcome {
	t.Helper()
	g := crashy.Modkit()
	switch {
	case strings.HasPrefix(c.tool, "approving_"):
		g = approving.Modkit()
	case strings.HasPrefix(c.tool, "clientside_"):
		g = clientside.Modkit()
	}
	// Unconfined: this package's TestMain builds the test mods, which a
	// confined process of the test binary could not do before it serves.
	opts := &modtest.Options{Hooks: true, Workspace: t.TempDir(), Approver: c.approver, Unconfined: true}
	if c.client != nil {
		opts.Client = &modtest.Client{Answers: []sdk.ClientAnswer{*c.client}}
	}
	out := modtest.Run(t, g, c.tool, c.input, opts)
	return newStepOutcome(out.Text, string(out.Status), out.ApprovalReason, out.Actions)
}

// TestOneCallPathSteps shows that the steps of a call (hooks, approval,
// client tools, client actions) end a call the same way, with the same
// approval reason and client actions, for mods in their own processes,
// the same mods in the host's process, and under sdk/modtest: the host
// and modtest run one pipeline (internal/callflow's Call).
func TestOneCallPathSteps(t *testing.T) {
	dirs := []string{crashyDir, approvingDir, clientsideDir}
	inProcesses := load(t, nil, dirs...)
	inProcess := load(t, nil, dirs...)
	for _, g := range []*sdk.Generated{crashy.Modkit(), approving.Modkit(), clientside.Modkit()} {
		if err := host.RunInProcess(inProcess.Host, g); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range stepCases {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]stepOutcome{
				"a mod process":      stepViaHost(t, inProcesses, c),
				"the host's process": stepViaHost(t, inProcess, c),
				"modtest":            stepViaModtest(t, c),
			}
			want := got["a mod process"]
			for where, o := range got {
				if o.text != c.want && !(c.prefix && strings.HasPrefix(o.text, c.want)) {
					t.Errorf("in %s: got %q, want %q", where, o.text, c.want)
				}
				if o.status != c.status || o.actions != c.actions {
					t.Errorf("in %s: got %s with %d actions, want %s with %d", where, o.status, o.actions, c.status, c.actions)
				}
				if o.text != want.text && !strings.Contains(c.name, "invalid input") {
					t.Errorf("in %s: got %q, but %q in a mod process", where, o.text, want.text)
				}
				if o.reason != want.reason || o.actionsJSON != want.actionsJSON {
					t.Errorf("in %s: got reason %q, actions %s; but %q, %s in a mod process", where, o.reason, o.actionsJSON, want.reason, want.actionsJSON)
				}
			}
		})
	}
}

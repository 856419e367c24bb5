package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/telemetry"
	"github.com/modkit/modkit/sdk"
)

// Status is how a call ended: one type with modtest.Status.
type Status = modapi.Status

// The outcomes of a call; a call whose approval was declined is StatusDenied.
const (
	StatusCompleted = modapi.StatusCompleted
	StatusFailed    = modapi.StatusFailed
	StatusCancelled = modapi.StatusCancelled
)

// CallRequest asks the host to run one tool.
type CallRequest struct {
	// Tool is the tool's name.
	Tool string
	// Input is the tool input, a JSON object; empty means {}.
	Input json.RawMessage
	// Session is the calling session; Workspace must be absolute.
	Session sdk.Session
	// Caller is who the call is made for, as the handler's
	// sdk.ToolContext.Caller reads it: a front end names the principal of
	// a verified access token, or the local user (LocalCaller). Never put
	// a token in it: the mod sees all of it. When nil, the handler reads
	// the zero Caller.
	Caller *sdk.Caller
	// Agent, when set, must be allowed to call Tool.
	Agent string
	// Label is the caller's name for the call (an MCP request id, say). It
	// is logged and returned, and identifies nothing: the host gives every
	// call an id of its own.
	Label string
	// CallID is taken as Label when Label is empty.
	//
	// Deprecated: use Label. The host gives every call an id of its own
	// (CallResult.CallID); a caller's id is only its label.
	CallID string
	// OnActivity, when set, is called for each update the activity rules
	// accept, in order, from one goroutine, before Call returns: the mod
	// streams updates as they happen. When nil, the updates travel with the
	// outcome in one round trip and only CallResult.Activity has them (a
	// crash mid-call then loses them).
	OnActivity func(ActivityEvent)
	// Approver, when set, is asked before a call that the tool's approval
	// rule says needs a person's approval. Without one, such a call fails:
	// the tool needs approval and none could be asked.
	Approver Approver
	// Asker, when set, puts the questions a tool's handler asks mid-call
	// (sdk.ToolContext.Ask, AskURL, Sample, Roots) and, when Approver is
	// nil, the approval question (a form with no fields, ApprovalKey).
	// Without one, the handler reads that nobody could be asked.
	Asker Asker
	// Answers are answers already given to the call's first questions, in
	// order: a stateless caller's retry, with CallResult.Answered of the
	// call that ended StatusAsking and the answers to its Questions. The
	// host uses each while the call asks the same question and the answer
	// fits it, and asks Asker the rest.
	Answers []Answered
	// Client has the handlers of this call's client (the session's, or
	// the agent's), for tools that run in the client; they take
	// precedence over those of Host.HandleClientTool. Handlers of tools
	// that run only in their mod are not used.
	Client ClientHandlers
	// Timeout bounds the tool's handler in place of Options.CallTimeout;
	// a call over it fails, saying so. Like Options.CallTimeout, and
	// unlike a deadline on the context, it counts from when the mod is
	// ready: a first call waits for its mod's build and start outside it.
	// Zero means Options.CallTimeout.
	Timeout time.Duration
}

// ActivityEvent is one accepted activity update.
type ActivityEvent struct {
	// Update is the update as the handler sent it.
	Update sdk.ActivityUpdate
	// Seq is the host's sequence number of a log entry, from 1; 0 for
	// title and status.
	Seq int
	// State is the call's activity after the update. Its Log shares
	// storage with later states: read it, do not modify it.
	State sdk.ActivityState
}

// CallResult is the one outcome of a call.
type CallResult struct {
	// Tool is the tool called.
	Tool string
	// CallID is the host's id for the call, unique among its calls; the
	// handler sees it as sdk.ToolContext.CallID.
	CallID string
	// Label is CallRequest.Label.
	Label string
	// Status is completed, failed, cancelled, denied or asking.
	Status Status
	// Text is what the model reads: the tool's text when completed,
	// "Tool failed: <message>" when failed.
	Text string
	// Result is a rendered tool's typed result, as JSON.
	Result json.RawMessage
	// Outputs are a plain tool's Output followed by its Extra.
	Outputs []sdk.Output
	// Error says why the call failed or was cancelled.
	Error string
	// Activity is the call's final activity.
	Activity sdk.ActivityState
	// ApprovalReason is what the person was asked to approve; empty when
	// the call needed no approval. Status is StatusDenied when they
	// declined.
	ApprovalReason string
	// Actions are the client actions of a completed call, in order, for
	// the client application to take: each of a kind the tool declares in
	// its manifest, with params its schema accepts.
	Actions []sdk.ClientAction
	// Questions are the questions to answer when Status is StatusAsking:
	// what the call asked together when the Asker answered ErrAskLater.
	Questions []Question
	// Answered are the questions the call asked that have answers, in
	// order, with them: with Questions' answers, they are the next
	// request's Answers.
	Answered []Answered
	// Unasked are the kinds of question the handler needed but the Asker
	// could not put, when it failed for that (its error wrapped
	// sdk.ErrCannotAsk): what the caller lacks.
	Unasked []QuestionKind
}

// call is Call, untraced and uncounted.
func (h *Host) call(ctx context.Context, req *CallRequest) (*CallResult, error) {
	if req.Label == "" && req.CallID != "" {
		labelled := *req
		labelled.Label = req.CallID
		req = &labelled
	}
	ctx = withWorkspace(ctx, req.Session.Workspace)
	t, ok := h.tools[req.Tool]
	if !ok {
		return nil, h.unknownTool(req.Tool)
	}
	if req.Agent != "" {
		a, ok := h.agents[req.Agent]
		if !ok {
			return nil, fmt.Errorf("%w: %w", ErrNotAllowed, h.unknownAgent(req.Agent))
		}
		if !a.allowed[req.Tool] {
			return nil, fmt.Errorf("%w: agent %s may not call tool %s", ErrNotAllowed, req.Agent, req.Tool)
		}
	}
	if h.isClosed() {
		return nil, ErrClosed
	}
	if t.mod.current(ctx) == nil {
		t.mod.lookEarly() // the start's look-ahead, while the call is checked
		defer t.mod.dropEarly()
	}
	res := &CallResult{Tool: req.Tool, CallID: h.newCallID(), Label: req.Label}
	input := inputOrEmpty(req.Input)
	// What the host refuses before it asks the mod anything.
	if err := h.requestTooLarge("the input", len(input)); err != nil {
		telemetry.InputRefused(req.Tool, telemetry.RefusedTooLarge)
		return res.fail(err.Error()), nil
	}
	if req.Session.Workspace != "" && !isAbs(req.Session.Workspace) {
		return res.fail(fmt.Sprintf("session workspace %q is not an absolute path", req.Session.Workspace)), nil
	}
	c := &hostCall{h: h, t: t, req: req, res: res}
	out := c.flow(input).Run(ctx)
	c.stop()
	if out.Abort != nil {
		return nil, out.Abort
	}
	res.ApprovalReason = out.ApprovalReason
	if out.Status == callflow.StatusAsking {
		return res.asking(res.Questions, c.callReq != nil), nil
	}
	res.Actions, res.Result, res.Outputs, res.Unasked = out.Actions, out.Result, out.Outputs, out.Unasked
	return res.endAs(out.Ending), nil
}

// flow is the call as the pipeline runs it, with what is the host's own:
// every mod's hooks, the approver or the asker, the client handler and
// the answers given with the request.
func (c *hostCall) flow(input json.RawMessage) *callflow.Call {
	h, t, req, res := c.h, c.t, c.req, c.res
	tc := t.callFuncs()
	c.qs = questioning{req: req, res: res, t: t, given: req.Answers}
	f := &c.f
	*f = callflow.Call{
		Env: c, ModID: t.mod.man.ID, Tool: &t.man, Input: input, Session: req.Session, Caller: req.Caller,
		CallID: res.CallID, Label: req.Label, Agent: req.Agent, Today: h.opts.Today(),
		MaxResultBytes: h.opts.MaxResultBytes, Grace: h.grace(), CanAsk: req.canAsk(),
		Approval: t.man.Approval != nil, Approver: req.Approver,
		ClientTimeout: h.opts.ClientTimeout, ClientClosed: tc.clientClosed,
		CheckResult: tc.checkResult, CheckActions: tc.checkActions,
		Questions: c,
	}
	if h.callHooks != nil {
		f.Hooks = h.callHooks
		if h.callHooker == t.mod {
			f.Ahead = c // an interface, not two closures made per call
		}
	}
	if req.Asker != nil && req.Asker.CanAsk(AskForm) {
		f.AskApproval = c.qs.approve
	}
	if handle := h.clientHandler(req, t); handle != nil {
		f.Client = func(ctx context.Context, input json.RawMessage) (sdk.ClientAnswer, error) {
			return h.runClient(ctx, t, req, res, input, handle)
		}
	}
	if req.OnActivity != nil {
		f.Watcher = c // an interface, not a closure made per call
	}
	return f
}

// Activity implements modapi.ActivityWatcher: u, once the activity rules
// apply it, reaches the caller's OnActivity.
func (c *hostCall) Activity(u sdk.ActivityUpdate) {
	if u, ok := c.applyActivity(c.callCtx, u); ok {
		e := ActivityEvent{Update: u, State: c.res.Activity}
		if u.Kind == sdk.ActivityLog {
			e.Seq = len(c.res.Activity.Log)
		}
		c.req.OnActivity(e)
	}
}

// endAs ends the call as e says (callflow builds every ending).
func (r *CallResult) endAs(e callflow.Ending) *CallResult {
	r.Activity.Ended = true
	r.Status = e.Status
	r.Error = e.Error
	r.Text = e.Text
	return r
}

func (r *CallResult) fail(msg string) *CallResult { return r.endAs(callflow.Failed(msg, nil)) }

var errCallTimeout = errors.New("call timed out")

// grace is the grace period the host sends with each request.
func (h *Host) grace() time.Duration {
	if !h.sendGrace {
		return 0
	}
	return h.opts.GracePeriod
}

// newRun identifies one request's handler in the mod.
func (h *Host) newRun() modapi.Run { return modapi.Run{CallID: h.newCallID(), Grace: h.grace()} }

// newCallID returns an id unique among the host's calls, and unlikely
// to be any other host's: "call_" and 24 hex digits.
func (h *Host) newCallID() string {
	n := h.calls.Add(1)
	b := make([]byte, len(h.idPrefix), len(h.idPrefix)+12)
	copy(b, h.idPrefix)
	for i := 44; i >= 0; i -= 4 {
		b = append(b, "0123456789abcdef"[n>>i&0xf])
	}
	return string(b)
}

// newIDPrefix returns the random start of a host's call ids.
func newIDPrefix() string {
	var b [6]byte
	rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}

func isAbs(path string) bool { return filepath.IsAbs(path) }

// isDeadline reports whether err is a call's deadline passing on the way
// to or from the mod.
func isDeadline(err error) bool {
	te := modapi.AsTransport(err)
	return te != nil && te.Kind == modapi.TransportDeadline
}

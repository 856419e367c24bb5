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

// Status is how a call ended.
type Status string

// The outcomes of a call; a call whose approval was declined is StatusDenied.
const (
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
)

// CallRequest asks the host to run one tool.
type CallRequest struct {
	// Tool is the tool's name.
	Tool string
	// Input is the tool input, a JSON object; empty means {}.
	Input json.RawMessage
	// Session is the calling session; Workspace must be absolute.
	Session sdk.Session
	// Agent, when set, must be allowed to call Tool.
	Agent string
	// Label is the caller's name for the call (an MCP request id, say). It
	// is logged and returned, and identifies nothing: the host gives every
	// call an id of its own.
	Label string
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
	c := &hostCall{h: h, t: t, req: req, res: &CallResult{Tool: req.Tool, CallID: h.newCallID(), Label: req.Label}}
	c.input = inputOrEmpty(req.Input)
	c.clientTool = h.clientHandler(req, t)
	end := callflow.Run(ctx, c.steps(), nil)
	if c.stop != nil {
		c.stop()
	}
	return end.res, end.err
}

// callEnd is how a call ends on a host: its outcome, or an error (ErrClosed).
type callEnd struct {
	res *CallResult
	err error
}

// hostCall is one call's state as the host runs its steps.
type hostCall struct {
	h          *Host
	t          *tool
	req        *CallRequest
	res        *CallResult
	input      json.RawMessage
	clientTool ClientHandler
	p          *proc
	today      string
	qs         *questioning
	// callReq is the mod's request, once the handler first runs; timer
	// bounds each run by the call timeout.
	callReq *modapi.CallRequest
	timeout time.Duration
	callCtx context.Context
	timer   *time.Timer
	stop    func() // ends callCtx and its timer
}

func ended(res *CallResult) (callEnd, bool)                { return callEnd{res: res}, true }
func endedWith(res *CallResult, err error) (callEnd, bool) { return callEnd{res: res, err: err}, true }

// steps are the host's steps of the call, in callflow's order.
func (c *hostCall) steps() *callflow.Steps[callEnd] {
	s := &callflow.Steps[callEnd]{
		Prepare: c.prepare,
		Check:   c.check,
		Call:    c.call,
		Ask:     c.ask,
		Outcome: func(resp *modapi.CallResponse) callEnd {
			return callEnd{res: c.res.outcome(c.t, &resp.Outcome, c.h.opts.MaxResultBytes)}
		},
	}
	if c.h.callHooks {
		s.Hooks = c.hooks
	}
	if c.t.man.Approval != nil {
		s.Approve = c.approve
	}
	if c.clientTool != nil {
		s.Client = func(ctx context.Context) callEnd {
			return callEnd{res: c.h.callClientTool(ctx, c.t, c.req, c.res, c.input, c.clientTool)}
		}
	}
	return s
}

// prepare refuses what the host refuses before asking the mod anything,
// and starts the tool's mod.
func (c *hostCall) prepare(ctx context.Context) (callEnd, bool) {
	h, t, req, res := c.h, c.t, c.req, c.res
	if err := h.requestTooLarge("the input", len(c.input)); err != nil {
		telemetry.InputRefused(req.Tool, telemetry.RefusedTooLarge)
		return ended(res.fail(err.Error()))
	}
	if req.Session.Workspace != "" && !isAbs(req.Session.Workspace) {
		return ended(res.fail(fmt.Sprintf("session workspace %q is not an absolute path", req.Session.Workspace)))
	}
	if _, end, cannot := callflow.Where(t.man.Name, t.man.Runs, c.clientTool != nil); cannot {
		return ended(res.endAs(end))
	}
	return callEnd{}, false
}

// check judges the input once, before any hook sees it: by the mod's
// generated validator when it enforces this very schema, else by the
// host. Without hooks the mod's judgement is part of the call. A schema
// that does not compile fails the call either way.
func (c *hostCall) check(ctx context.Context) (callEnd, bool) {
	h, t, req := c.h, c.t, c.req
	schema, err := t.schema()
	if err != nil {
		return ended(c.res.fail(err.Error()))
	}
	if end, ok := c.start(ctx); ok {
		return end, true
	}
	p := c.p
	var problems []string
	var vspan telemetry.Span
	switch {
	case !p.validates[t.man.Name]:
		_, vspan = telemetry.StartStep(ctx, telemetry.StepValidate, "")
		if problems = checkInput(schema, c.input); len(problems) == 0 {
			c.input = schema.WithDefaults(c.input)
		}
	case h.callHooks || c.clientTool != nil:
		var vctx context.Context
		vctx, vspan = telemetry.StartStep(ctx, telemetry.StepValidate, "")
		if problems, err = p.checkInput(vctx, t.man.Name, c.input); err != nil {
			vspan.End()
			if modapi.AsTransport(err) == nil {
				return ended(c.res.fail(err.Error()))
			}
			return ended(c.res.streamError(ctx, ctx, p, err, h.opts.CallTimeout))
		}
	}
	if len(problems) > 0 {
		vspan.Fail("invalid_input", "the input does not fit the tool's schema")
		vspan.End()
		telemetry.InputRefused(req.Tool, telemetry.RefusedInvalid)
		return ended(c.res.endAs(callflow.InvalidInput(t.man.Name, problems, nil)))
	}
	vspan.End()
	c.today = h.opts.Today()
	c.qs = h.newQuestioning(req, c.res, t)
	return callEnd{}, false
}

// start gets the tool's mod process into c.p, starting it when needed; it
// ends the call when it cannot.
func (c *hostCall) start(ctx context.Context) (callEnd, bool) {
	p, res, err := c.h.start(ctx, c.t, c.res)
	if p == nil {
		return endedWith(res, err)
	}
	c.p = p
	return callEnd{}, false
}

// hooks runs the hooks on the tool call, in every mod that has one.
func (c *hostCall) hooks(ctx context.Context) (callEnd, bool) {
	req := c.req
	hctx, hspan := telemetry.StartStep(ctx, telemetry.StepHooks, sdk.ActionToolCall)
	msg, err := callflow.Hooks(hctx, sdk.Action{Name: sdk.ActionToolCall, Tool: req.Tool, Input: c.input},
		func(ctx context.Context, a sdk.Action) (string, error) {
			return c.h.runHooks(ctx, &modapi.ActionRequest{Action: a, Session: req.Session, Today: c.today}, nil)
		})
	if msg != "" {
		hspan.Fail("refused", msg)
		telemetry.InputRefused(req.Tool, telemetry.RefusedHook)
	}
	hspan.End()
	switch {
	case errors.Is(err, ErrClosed):
		return endedWith(nil, err)
	case err != nil:
		return ended(c.res.end(ctx, err))
	case msg != "":
		return ended(c.res.fail(msg))
	}
	return callEnd{}, false
}

// approve runs the tool's approval step.
func (c *hostCall) approve(ctx context.Context) (callEnd, bool) {
	actx, aspan := telemetry.StartStep(ctx, telemetry.StepApproval, "")
	r := c.h.approve(actx, c.t, c.p, c.req, c.res, c.input, c.today, c.qs)
	approvalEnded(aspan, c.req.Tool, c.res, r)
	if r != nil {
		return ended(r)
	}
	// The person may have taken a while: the mod may have been stopped or
	// restarted meanwhile.
	if c.res.ApprovalReason != "" {
		return c.start(ctx)
	}
	return callEnd{}, false
}

// call runs the handler once. The call timeout is the host's own: no
// deadline travels to the mod. Hooks, before it, had their own; the wait
// for answers between runs is nobody's.
func (c *hostCall) call(ctx context.Context, answers []modapi.Answered) (*modapi.CallResponse, callEnd, bool) {
	t, res, p := c.t, c.res, c.p
	if c.callReq == nil {
		c.first(ctx)
	} else {
		c.callReq.Answers = answers
		c.timer.Reset(c.timeout)
	}
	// Without OnActivity, one round trip carries the activity with the
	// outcome.
	p.calls.Add(res.CallID)
	resp, err := p.rpc.CallTool(c.callCtx, c.callReq)
	p.calls.Remove(res.CallID)
	if errors.Is(err, modapi.ErrNoOutcome) {
		return nil, callEnd{res: res.fail(fmt.Sprintf("mod %s ended the call without an outcome", t.mod.man.ID))}, true
	}
	if err != nil {
		return nil, callEnd{res: res.streamError(ctx, c.callCtx, p, err, c.timeout)}, true
	}
	if resp.Outcome.Status == modapi.StatusCancelled {
		// Only a mod in this process answers so; over the wire the call
		// ends with the context's error.
		return nil, callEnd{res: res.streamError(ctx, c.callCtx, p, c.callCtx.Err(), c.timeout)}, true
	}
	for _, u := range resp.Activity {
		modapi.Apply(&res.Activity, u)
	}
	return resp, callEnd{}, false
}

// first builds the mod's request and the call's timer, once.
func (c *hostCall) first(ctx context.Context) {
	h, req, res := c.h, c.req, c.res
	c.timeout = h.opts.CallTimeout
	if req.Timeout > 0 {
		c.timeout = req.Timeout
	}
	callCtx, cancel := context.WithCancelCause(ctx)
	c.callCtx = callCtx
	c.timer = time.AfterFunc(c.timeout, func() { cancel(errCallTimeout) })
	c.stop = func() {
		c.timer.Stop()
		cancel(nil)
	}
	c.callReq = &modapi.CallRequest{
		Tool:           req.Tool,
		Input:          c.input,
		Session:        req.Session,
		CallID:         res.CallID,
		Label:          req.Label,
		Today:          c.today,
		Grace:          h.grace(),
		MaxResultBytes: h.opts.MaxResultBytes,
		CanAsk:         req.canAsk(),
		Answers:        c.qs.modAnswers(),
	}
	if req.OnActivity != nil {
		c.callReq.OnActivity = func(u sdk.ActivityUpdate) {
			if u, ok := modapi.Apply(&res.Activity, u); ok {
				e := ActivityEvent{Update: u, State: res.Activity}
				if u.Kind == sdk.ActivityLog {
					e.Seq = len(res.Activity.Log)
				}
				req.OnActivity(e)
			}
		}
	}
}

// ask answers the questions a run of the handler asked, then gets the
// mod's process again for the next run: the handler runs again from the
// start with the answers.
func (c *hostCall) ask(ctx context.Context, given []modapi.Answered, asked []modapi.Question) ([]modapi.Answered, callEnd, bool) {
	c.timer.Stop()
	if given == nil {
		given = c.callReq.Answers
	}
	qctx, qspan := telemetry.StartStep(ctx, telemetry.StepQuestion, questionKinds(asked))
	answers, end := c.qs.ask(qctx, given, asked)
	questionsEnded(qspan, c.req.Tool, asked, end)
	if end != nil {
		end.Activity.Ended = true
		return nil, callEnd{res: end}, true
	}
	if end, ok := c.start(ctx); ok {
		return nil, end, true
	}
	return answers, callEnd{}, false
}

// start returns the tool's mod process, starting it when needed. When it
// cannot, it returns the call's outcome, or ErrClosed.
func (h *Host) start(ctx context.Context, t *tool, res *CallResult) (*proc, *CallResult, error) {
	if ctx.Err() != nil {
		return nil, res.cancelled(), nil
	}
	started := h.startSpan(ctx, t.mod)
	p, err := t.mod.getCtx(ctx)
	started(err != nil)
	switch {
	case err == nil:
		return p, res, nil
	case errors.Is(err, ErrClosed):
		return nil, nil, err
	case ctx.Err() != nil:
		return nil, res.cancelled(), nil
	}
	return nil, res.failWith(err), nil
}

// endAs ends the call as e says (callflow builds every ending).
func (r *CallResult) endAs(e callflow.Ending) *CallResult {
	r.Activity.Ended = true
	r.Status = Status(e.Status)
	r.Error = e.Error
	r.Text = e.Text
	return r
}

func (r *CallResult) fail(msg string) *CallResult { return r.endAs(callflow.Failed(msg, nil)) }

func (r *CallResult) cancelled() *CallResult { return r.endAs(callflow.Cancelled(nil)) }

// end turns an error that stopped the call into its outcome.
func (r *CallResult) end(ctx context.Context, err error) *CallResult {
	if ctx.Err() != nil {
		return r.cancelled()
	}
	return r.failWith(err)
}

func (r *CallResult) streamError(ctx, callCtx context.Context, p *proc, err error, timeout time.Duration) *CallResult {
	switch {
	case ctx.Err() != nil || isDeadline(err):
		// Only the caller's deadline travels to the mod, whose timer may
		// fire before ours: either way the caller gave up.
		p.reapAfterGrace(r.CallID)
		return r.cancelled()
	case context.Cause(callCtx) == errCallTimeout:
		p.reapAfterGrace(r.CallID)
		return r.fail(fmt.Sprintf("tool %s timed out after %s", r.Tool, timeout))
	}
	return r.fail(p.transportError(err))
}

func (r *CallResult) outcome(t *tool, o *modapi.Outcome, maxBytes int) *CallResult {
	// The mod caps the result too; a mod built against another sdk may not.
	modapi.CapResult(t.man.Name, o, maxBytes)
	if o.Status != modapi.StatusCompleted {
		r.Unasked = o.Unasked
	} else if msg := t.checkActions(o.Actions); msg != "" {
		return r.fail(msg)
	} else {
		r.Actions, r.Result, r.Outputs = o.Actions, o.Result, o.Outputs
	}
	return r.endAs(callflow.Completed(t.man.Name, o))
}

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

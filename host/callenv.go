package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/deadlines"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/telemetry"
	"github.com/modkit/modkit/internal/words"
)

// callDeadlines are the call timeouts of every host in the process.
var callDeadlines deadlines.Queue

// hostCall is what the host adds to the steps of one call
// (callflow.Env): the mod's process, started and restarted when needed,
// the host's timeouts, and a span for each step.
type hostCall struct {
	h   *Host
	t   *tool
	req *CallRequest
	res *CallResult
	p   *proc
	// qs and f are the call's, kept here: one allocation for the three.
	qs questioning
	f  callflow.Call
	// callReq is the mod's request, once the handler first runs; timer
	// bounds each run by the call timeout (in callDeadlines), cancel ends
	// callCtx.
	callReq *modapi.CallRequest
	timeout time.Duration
	callCtx context.Context
	timer   deadlines.Entry
	cancel  context.CancelCauseFunc
	// act applies the mod's updates to res.Activity.
	act modapi.Applier
}

// Mod returns the tool's mod process, starting it when needed. A tool
// whose schema does not compile fails before its mod starts.
func (c *hostCall) Mod(ctx context.Context) (modapi.Mod, error) {
	if c.p == nil {
		if _, err := c.t.schema(); err != nil {
			return nil, err
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	p := c.t.mod.current(ctx)
	if p == nil {
		started := c.h.startSpan(ctx, c.t.mod)
		var err error
		p, err = c.t.mod.getCtx(ctx)
		started(err != nil)
		if err != nil {
			return nil, err
		}
	}
	c.p = p
	return p.rpc, nil
}

// Failure ends the call that err stopped: no call when the host closed,
// cancelled when the caller gave up, else failed, a crash named by the
// process's exit.
func (c *hostCall) Failure(ctx context.Context, err error) callflow.Ending {
	switch {
	case errors.Is(err, ErrClosed):
		return callflow.Ending{Abort: err}
	case ctx.Err() != nil:
		return callflow.Cancelled(nil)
	case modapi.AsTransport(err) != nil && !errors.As(err, new(*ModError)):
		return c.streamError(ctx, ctx, err, c.h.opts.CallTimeout)
	}
	return failedWith(err)
}

// Validate checks the input with the host's copy of the tool's schema
// when the mod has no generated validator of it.
func (c *hostCall) Validate(input json.RawMessage) ([]string, json.RawMessage, bool) {
	if c.p.validates[c.t.man.Name] {
		return nil, nil, false
	}
	schema, _ := c.t.schema() // compiled when the mod started
	if problems := checkInput(schema, input); len(problems) > 0 {
		return problems, nil, true
	}
	return nil, schema.WithDefaults(input), true
}

// Bound runs the mod's code of a step (the approval rule) like a hook's:
// within HookTimeout, reaped when it runs on after cancellation.
func (c *hostCall) Bound(ctx context.Context, what string, run func(ctx context.Context) error) error {
	_, err := bounded(ctx, c.p, what, c.res.CallID, c.h.opts.HookTimeout, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, run(ctx)
	})
	return err
}

// Handle runs the handler once. The call timeout is the host's own: no
// deadline travels to the mod. Hooks, before it, had their own; the wait
// for answers between runs is nobody's.
func (c *hostCall) Handle(ctx context.Context, m modapi.Mod, req *modapi.CallRequest) (*modapi.CallResponse, callflow.Ending, bool) {
	p, res := c.p, c.res
	if c.callReq == nil {
		c.first(ctx, req)
	} else {
		callDeadlines.Add(&c.timer, c.timeout)
	}
	// Without OnActivity, one round trip carries the activity with the
	// outcome.
	p.calls.Add(res.CallID)
	resp, err := m.CallTool(c.callCtx, req)
	p.calls.Remove(res.CallID)
	if errors.Is(err, modapi.ErrNoOutcome) {
		return nil, callflow.Failed(fmt.Sprintf("mod %s ended the call without an outcome", c.t.mod.man.ID), nil), true
	}
	if err != nil {
		return nil, c.streamError(ctx, c.callCtx, err, c.timeout), true
	}
	if resp.Outcome.Status == modapi.StatusCancelled {
		// Only a mod in this process answers so; over the wire the call
		// ends with the context's error.
		return nil, c.streamError(ctx, c.callCtx, c.callCtx.Err(), c.timeout), true
	}
	for _, u := range resp.Activity {
		c.applyActivity(ctx, u)
	}
	return resp, callflow.Ending{}, false
}

// first sets up the call's timer, once.
func (c *hostCall) first(ctx context.Context, req *modapi.CallRequest) {
	c.callReq = req
	c.timeout = c.h.opts.CallTimeout
	if c.req.Timeout > 0 {
		c.timeout = c.req.Timeout
	}
	callCtx, cancel := context.WithCancelCause(ctx)
	c.callCtx, c.cancel = callCtx, cancel
	c.timer = deadlines.Entry{Fire: func() { cancel(errCallTimeout) }}
	callDeadlines.Add(&c.timer, c.timeout)
}

// stop ends callCtx and its timer, once the handler first ran.
func (c *hostCall) stop() {
	if c.callReq != nil {
		callDeadlines.Remove(&c.timer)
		c.cancel(nil)
	}
}

// Answers implements callflow.Questions: the answers given with the
// request for the handler's first questions.
func (c *hostCall) Answers() []modapi.Answered { return c.qs.modAnswers() }

// CanAskNow implements callflow.Questions.
func (c *hostCall) CanAskNow([]modapi.QuestionKind) []modapi.QuestionKind { return c.qs.canAsk() }

// Ask implements callflow.Questions: it answers the questions a run of the
// handler asked; the pipeline then gets the mod's process again for the
// next run.
func (c *hostCall) Ask(ctx context.Context, given []modapi.Answered, asked []modapi.Question) ([]modapi.Answered, callflow.Ending, bool) {
	callDeadlines.Remove(&c.timer)
	qctx, qspan := telemetry.StartStep(ctx, telemetry.StepQuestion, questionKinds(asked))
	answers, end, ended := c.qs.ask(qctx, given, asked)
	questionsEnded(qspan, c.req.Tool, asked, end, ended)
	return answers, end, ended
}

// Step starts the span of a step and counts what it refused.
func (c *hostCall) Step(ctx context.Context, step callflow.Step, detail string) (context.Context, func(callflow.StepEnd)) {
	switch step {
	case callflow.StepValidate:
		ctx, span := telemetry.StartStep(ctx, telemetry.StepValidate, detail)
		return ctx, func(e callflow.StepEnd) {
			if e.Refused {
				span.Fail("invalid_input", "the input does not fit the tool's schema")
				telemetry.InputRefused(c.req.Tool, telemetry.RefusedInvalid)
			}
			span.End()
		}
	case callflow.StepHooks:
		ctx, span := telemetry.StartStep(ctx, telemetry.StepHooks, detail)
		return ctx, func(e callflow.StepEnd) {
			if e.Refused {
				span.Fail("refused", e.Ending.Error)
				telemetry.InputRefused(c.req.Tool, telemetry.RefusedHook)
			}
			span.End()
		}
	}
	ctx, span := telemetry.StartStep(ctx, telemetry.StepApproval, detail)
	return ctx, func(e callflow.StepEnd) { approvalEnded(span, c.req.Tool, e) }
}

// streamError is the ending of a call whose request to the mod failed
// with err: cancelled when the caller gave up, failed when the call timed
// out or the mod could not answer.
func (c *hostCall) streamError(ctx, callCtx context.Context, err error, timeout time.Duration) callflow.Ending {
	p := c.p
	switch {
	case ctx.Err() != nil || isDeadline(err):
		// Only the caller's deadline travels to the mod, whose timer may
		// fire before ours: either way the caller gave up.
		p.reapAfterGrace(c.res.CallID)
		return callflow.Cancelled(nil)
	case context.Cause(callCtx) == errCallTimeout:
		p.reapAfterGrace(c.res.CallID)
		return callflow.Failed(fmt.Sprintf("tool %s timed out after %s", c.t.man.Name, timeout), nil)
	}
	return callflow.Failed(p.transportError(err), nil)
}

// Ahead implements callflow.Ahead: it lets the input check and the hooks
// of the call travel with it: the tool's mod, the only one that hooks tool
// calls, takes a call's steps on its call lane, and the call is not traced,
// so that no step's span is missing. The hooks get their own run and the
// hook timeout, as runHooks gives them.
func (c *hostCall) Ahead(ctx context.Context, a *modapi.Ahead) bool {
	if c.p == nil || c.p.lane == nil || !c.p.lane.Steps() || trace.SpanContextFromContext(ctx).IsSampled() {
		return false
	}
	a.Hook.Run = c.h.newRun()
	a.HookTimeout = c.h.opts.HookTimeout
	return true
}

// AheadHooks implements callflow.Ahead: it words how the hooks ahead of
// the call stopped it, as runHooks and bounded word the same ends of hooks
// asked apart.
func (c *hostCall) AheadHooks(_ context.Context, a *modapi.Ahead, st *modapi.Stopped) (string, error) {
	id := c.t.mod.man.ID
	what := "hook of mod " + id + " before " + a.Hook.Action.Name
	switch {
	case st.Refusal != "":
		return words.Blocked(id, st.Refusal), nil
	case st.HookTimedOut:
		c.p.reapAfterGrace(a.Hook.CallID)
		return "", fmt.Errorf("%s: timed out after %s", what, a.HookTimeout)
	}
	te := &modapi.TransportError{Kind: modapi.TransportOther, Msg: st.HookFailure, Err: errors.New(st.HookFailure)}
	return "", fmt.Errorf("%s: %s", what, c.p.transportError(te))
}

package callflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modkit/modkit/internal/approval"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// ErrAskLater is what an approver or asker returns when the question goes
// back to the caller, to be answered on a later request: the call ends
// StatusAsking.
var ErrAskLater = errors.New("the question is answered on a later request")

// StatusAsking ends a call whose questions are answered on a later
// request (ErrAskLater).
const StatusAsking = modapi.StatusAsking

// Call is one tool call as the pipeline runs it: decode and validate the
// input, hooks, approval, the client (or the handler, with its questions
// answered between runs) and the outcome, with its client actions
// checked. The host and modtest each fill one in and call Run; what only
// one of them has (more mods' hooks, an asker, a client handler) comes in
// as a field.
type Call struct {
	Env   Env
	ModID string
	Tool  *manifest.Tool
	// Input is the tool's input, a JSON object.
	Input   json.RawMessage
	Session sdk.Session
	// Caller is who the call is made for; nil when nobody was named.
	Caller *sdk.Caller
	// CallID, Label and Agent identify the call; Today is the date the
	// mod's code sees.
	CallID, Label, Agent, Today string
	// MaxResultBytes caps the result; Grace is the handler's grace
	// period after cancellation.
	MaxResultBytes int
	Grace          time.Duration
	// CanAsk are the kinds of question the handler may ask.
	CanAsk []modapi.QuestionKind
	// OnActivity, when set, receives the handler's activity updates as
	// they happen.
	OnActivity func(sdk.ActivityUpdate)
	// Watcher is modapi.CallRequest.Watcher.
	Watcher modapi.ActivityWatcher

	// Hooks, when set, runs the hooks on one action (a host: in every mod
	// that has one) and returns a refusal, worded for the model.
	Hooks func(ctx context.Context, req *modapi.ActionRequest) (refusal string, err error)
	// Ahead, when set, lets the input check and the hooks on the tool
	// call travel with the call, in one request to its mod (the host's:
	// when the tool's mod alone hooks tool calls, serves a call's steps on
	// its call lane, and the call is not traced). A call that needs
	// approval or runs in the client takes its steps apart, as does one
	// whose Ahead says no.
	Ahead Ahead
	// Approval runs the tool's approval rule before the call.
	Approval bool
	// Approver answers for the person; AskApproval, when there is none,
	// puts the approval question another way and returns the person's
	// action. Neither: a call that needs approval fails.
	Approver    approval.Approver
	AskApproval func(ctx context.Context, question string) (action string, err error)
	// Client, when set, runs a tool that runs in the client: it hands
	// the valid input to the client and waits for its answer. The call
	// fails after ClientTimeout (modapi.ErrClientTimeout), and with
	// ClientClosed on any other error.
	Client        func(ctx context.Context, input json.RawMessage) (sdk.ClientAnswer, error)
	ClientTimeout time.Duration
	ClientClosed  string
	// CheckResult judges a client's typed result against the tool's
	// result schema.
	CheckResult func(result []byte) ([]string, error)
	// CheckActions, when set, returns the failure of a call whose client
	// actions break the manifest, or "".
	CheckActions func(actions []sdk.ClientAction) string
	// Questions answers the handler's questions between its runs; nil
	// when it can ask none.
	Questions Questions

	mod modapi.Mod
	// ahead and hook are the steps ahead of the call, when they travel
	// with it: kept here, not allocated apart.
	ahead modapi.Ahead
	hook  modapi.ActionRequest
}

// Ahead lets the steps of a call travel with it (Call.Ahead): one
// interface, where two funcs would be two allocations a call.
type Ahead interface {
	// Ahead, given the steps, fills in what they need (the hooks' run
	// and timeout) and reports whether they may.
	Ahead(ctx context.Context, a *modapi.Ahead) bool
	// AheadHooks words how the hooks ahead of a call stopped it (a
	// refusal, a failure, their timeout), as Call.Hooks would have.
	AheadHooks(ctx context.Context, a *modapi.Ahead, st *modapi.Stopped) (refusal string, err error)
}

// Questions answers a handler's questions between its runs: one
// interface, where three funcs would be three allocations a call.
type Questions interface {
	// Answers returns the answers given for the handler's first
	// questions, once the approval step is done.
	Answers() []modapi.Answered
	// Ask answers the questions one run of the handler asked, which
	// given did not cover, and returns the next run's answers, or ends
	// the call.
	Ask(ctx context.Context, given []modapi.Answered, asked []modapi.Question) ([]modapi.Answered, Ending, bool)
	// CanAskNow returns the kinds the handler may ask on its next run,
	// given those of the run before: fewer once a question of a kind
	// could not be put after all.
	CanAskNow(before []modapi.QuestionKind) []modapi.QuestionKind
}

// Outcome is how a call ended, with what it produced.
type Outcome struct {
	Ending
	// ApprovalReason is what the person was asked; "" when the call
	// needed no approval.
	ApprovalReason string
	// Handled is set when the handler's outcome ended the call.
	Handled bool
	// Result, Outputs and Actions are a completed call's.
	Result  json.RawMessage
	Outputs []sdk.Output
	Actions []sdk.ClientAction
	// Unasked are the kinds of question the handler could not ask, when
	// it failed for that.
	Unasked []modapi.QuestionKind
}

// Run runs the call's steps in their one order and returns its outcome.
func (c *Call) Run(ctx context.Context) *Outcome {
	out := &Outcome{}
	end, ended := c.run(ctx, out)
	if ended {
		out.Ending = end
	}
	return out
}

func (c *Call) run(ctx context.Context, out *Outcome) (Ending, bool) {
	name := c.Tool.Name
	inClient, end, ended := Where(name, c.Tool.Runs, c.Client != nil)
	if ended {
		return end, true
	}
	canAhead := c.Ahead != nil && c.Hooks != nil && !inClient && !c.Approval
	end, ended, inMod := c.check(ctx, inClient)
	if ended {
		return end, true
	}
	var ahead *modapi.Ahead
	if canAhead {
		c.hook = c.hookRequest()
		c.ahead = modapi.Ahead{Check: inMod, Hook: &c.hook}
		if c.Ahead.Ahead(ctx, &c.ahead) {
			ahead = &c.ahead
		}
	}
	if ahead == nil {
		if inMod {
			if end, ended := c.checkInMod(ctx); ended {
				return end, true
			}
		}
		if c.Hooks != nil {
			if end, ended := c.hooks(ctx); ended {
				return end, true
			}
		}
	}
	if c.Approval {
		if end, ended := c.approve(ctx, out); ended {
			return end, true
		}
	}
	if inClient {
		return c.client(ctx, out)
	}
	req := &modapi.CallRequest{
		Tool: name, Input: c.Input, Session: c.Session, Caller: c.Caller, CallID: c.CallID, Label: c.Label, Today: c.Today,
		Grace: c.Grace, MaxResultBytes: c.MaxResultBytes, CanAsk: c.CanAsk, OnActivity: c.OnActivity,
		Watcher: c.Watcher,
	}
	if c.Questions != nil {
		req.Answers = c.Questions.Answers()
	}
	req.Ahead = ahead
	for {
		resp, end, ended := c.Env.Handle(ctx, c.mod, req)
		if ended {
			return end, true
		}
		if req.Ahead != nil {
			if resp.Stopped != nil {
				return c.stopped(ctx, req.Ahead, resp.Stopped)
			}
			req.Ahead = nil // passed: the handler's later runs need none
		}
		if resp.Outcome.Status != modapi.StatusAsking {
			out.Handled = true
			return c.outcome(&resp.Outcome, out), true
		}
		if req.Answers, end, ended = c.Questions.Ask(ctx, req.Answers, resp.Outcome.Questions); ended {
			return end, true
		}
		req.CanAsk = c.Questions.CanAskNow(req.CanAsk)
		// The handler runs again from the start, with the answers.
		if end, ended := c.start(ctx); ended {
			return end, true
		}
	}
}

// start gets the tool's mod, starting it when needed.
func (c *Call) start(ctx context.Context) (Ending, bool) {
	m, err := c.Env.Mod(ctx)
	if err != nil {
		return c.Env.Failure(ctx, err), true
	}
	c.mod = m
	return Ending{}, false
}

// check judges the input once, before any hook or client sees it: in the
// environment's place when it does; else, when a hook or a client will
// see the input, inMod says the mod's validator judges it (checkInMod, or
// ahead of the call). Without either, the mod's judgement is part of the
// call.
func (c *Call) check(ctx context.Context, inClient bool) (end Ending, ended, inMod bool) {
	if end, ended := c.start(ctx); ended {
		return end, true, false
	}
	problems, input, handled := c.Env.Validate(c.Input)
	if !handled {
		return Ending{}, false, c.Hooks != nil || inClient
	}
	_, done := c.Env.Step(ctx, StepValidate, "")
	if len(problems) == 0 {
		c.Input = input
	}
	end, ended = c.judged(ctx, done, &modapi.CheckResponse{Problems: problems}, nil)
	return end, ended, false
}

// checkInMod judges the input with the mod's validator.
func (c *Call) checkInMod(ctx context.Context) (Ending, bool) {
	vctx, done := c.Env.Step(ctx, StepValidate, "")
	resp, err := c.mod.CheckInput(vctx, &modapi.CheckRequest{Tool: c.Tool.Name, Input: c.Input})
	return c.judged(ctx, done, resp, err)
}

// judged ends the validate step, whose span done ends, with the check's
// response or error, and the call when the input is not valid.
func (c *Call) judged(ctx context.Context, done func(StepEnd), resp *modapi.CheckResponse, err error) (Ending, bool) {
	if err == nil && resp.Error != "" {
		err = errors.New(resp.Error)
	}
	if err != nil {
		done(StepEnd{})
		if modapi.AsTransport(err) == nil {
			return Failed(err.Error(), err), true
		}
		return c.Env.Failure(ctx, err), true
	}
	if problems := resp.Problems; len(problems) > 0 {
		end := InvalidInput(c.Tool.Name, problems, &sdk.InputError{Problems: problems})
		done(StepEnd{Ending: &end, Refused: true})
		return end, true
	}
	done(StepEnd{})
	return Ending{}, false
}

// hookRequest is the hooks' request before the tool call.
func (c *Call) hookRequest() modapi.ActionRequest {
	return modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: c.Tool.Name, Input: c.Input}, Session: c.Session, Today: c.Today}
}

// stopped is the ending of a call that a step ahead of it, a (the check or
// the hooks), stopped as st says: the step's, as if it had run apart.
func (c *Call) stopped(ctx context.Context, a *modapi.Ahead, st *modapi.Stopped) (Ending, bool) {
	switch {
	case len(st.Problems) > 0 || st.CheckError != "" || st.CheckFailure != "":
		_, done := c.Env.Step(ctx, StepValidate, "")
		var err error
		if st.CheckFailure != "" {
			err = &modapi.TransportError{Kind: modapi.TransportOther, Msg: st.CheckFailure, Err: errors.New(st.CheckFailure)}
		}
		return c.judged(ctx, done, &modapi.CheckResponse{Problems: st.Problems, Error: st.CheckError}, err)
	case st.Refusal != "" || st.HookFailure != "" || st.HookTimedOut:
		_, done := c.Env.Step(ctx, StepHooks, sdk.ActionToolCall)
		refusal, err := c.Ahead.AheadHooks(ctx, a, st)
		return c.hooked(ctx, done, refusal, err)
	}
	return Failed(fmt.Sprintf("mod %s stopped the call of %s before its handler without saying why", c.ModID, c.Tool.Name), nil), true
}

// hooks runs the hooks on the tool call.
func (c *Call) hooks(ctx context.Context) (Ending, bool) {
	hctx, done := c.Env.Step(ctx, StepHooks, sdk.ActionToolCall)
	req := c.hookRequest()
	refusal, err := Hooks(hctx, req.Action,
		func(ctx context.Context, a sdk.Action) (string, error) {
			r := req
			r.Action = a
			return c.Hooks(ctx, &r)
		})
	return c.hooked(ctx, done, refusal, err)
}

// hooked ends the hooks' step, whose span done ends, with their refusal or
// error, and the call when there is one.
func (c *Call) hooked(ctx context.Context, done func(StepEnd), refusal string, err error) (Ending, bool) {
	var end Ending
	switch {
	case refusal != "":
		end = Failed(refusal, nil)
		done(StepEnd{Ending: &end, Refused: true})
		return end, true
	case err != nil:
		end = c.Env.Failure(ctx, err)
		done(StepEnd{})
		return end, true
	}
	done(StepEnd{})
	return end, false
}

// approve runs the tool's approval rule in the mod and, when it gives a
// reason, asks the person (Approve).
func (c *Call) approve(ctx context.Context, out *Outcome) (Ending, bool) {
	actx, done := c.Env.Step(ctx, StepApproval, "")
	end, ended := c.approval(actx, out)
	se := StepEnd{Reason: out.ApprovalReason}
	if ended {
		se.Ending = &end
	}
	done(se)
	if ended {
		return end, true
	}
	if out.ApprovalReason != "" {
		return c.start(ctx)
	}
	return Ending{}, false
}

func (c *Call) approval(ctx context.Context, out *Outcome) (Ending, bool) {
	name := c.Tool.Name
	rule, ok := c.mod.(modapi.ApprovalRule)
	if !ok {
		return Failed(fmt.Sprintf("mod %s cannot say whether a call needs approval", c.ModID), nil), true
	}
	req := &modapi.ApprovalRequest{
		Tool: name, Input: c.Input, Session: c.Session, Caller: c.Caller, Today: c.Today,
		Run: modapi.Run{CallID: c.CallID, Grace: c.Grace},
	}
	var ask func(reason string) (string, error)
	switch {
	case c.Approver != nil:
		ask = AskApprover(ctx, c.Approver, func(reason string) *approval.Request {
			r := approval.For(c.Tool, reason)
			r.CallID, r.Label, r.Input, r.Session, r.Agent = c.CallID, c.Label, c.Input, c.Session, c.Agent
			return r
		})
	case c.AskApproval != nil:
		ask = func(reason string) (string, error) {
			return c.AskApproval(ctx, approval.For(c.Tool, reason).Question())
		}
	}
	step, end, refused := Approve(ctx, name, func(ctx context.Context) (resp *modapi.ApprovalResponse, err error) {
		err = c.Env.Bound(ctx, "approval rule of tool "+name, func(ctx context.Context) error {
			resp, err = rule.NeedsApproval(ctx, req)
			return err
		})
		return resp, err
	}, ask)
	out.ApprovalReason = step.Reason
	if errors.Is(step.Err, ErrAskLater) {
		return Ending{Status: StatusAsking}, true
	}
	return end, refused
}

// client runs the call in the client and ends it with the client's
// answer.
func (c *Call) client(ctx context.Context, out *Outcome) (Ending, bool) {
	a, err := c.Client(ctx, c.Input)
	end, o := ClientAnswered(ctx, c.Tool.Name, a, err, c.ClientTimeout, c.ClientClosed,
		c.Tool.Kind == manifest.KindRendered, c.MaxResultBytes, c.CheckResult)
	if end.Status != modapi.StatusCompleted {
		return end, true
	}
	return c.outcome(&o, out), true
}

// outcome is the ending of the handler's (or the client's) outcome o,
// capped and with its client actions checked against the manifest: the
// mod checks both already, but a mod built against another sdk may not.
func (c *Call) outcome(o *modapi.Outcome, out *Outcome) Ending {
	name := c.Tool.Name
	modapi.CapResult(name, o, c.MaxResultBytes)
	if o.Status != modapi.StatusCompleted {
		out.Unasked = o.Unasked
		return Completed(name, o)
	}
	if c.CheckActions != nil {
		if msg := c.CheckActions(o.Actions); msg != "" {
			return Failed(msg, nil)
		}
	}
	out.Actions, out.Result, out.Outputs = o.Actions, o.Result, o.Outputs
	return Completed(name, o)
}

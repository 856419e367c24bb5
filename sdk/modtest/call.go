package modtest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// call is one tool call under modtest: the host's steps (internal/callflow)
// over the server code a mod process runs, with the person, the client
// and the answers scripted by Options. Every ending is callflow's.
type call struct {
	g    *sdk.Generated
	man  manifest.Tool
	opts *Options
	out  *Outcome
	srv  *modserver.Server
	rec  *recorder
	// req is the mod's request; start and end time the handler's runs.
	req        *modapi.CallRequest
	start, end time.Time
}

// steps are modtest's steps of the call, in callflow's order: like a
// host's, the input is checked before hooks and a client see it.
func (c *call) steps() *callflow.Steps[*Outcome] {
	opts, out := c.opts, c.out
	c.req = &modapi.CallRequest{
		Tool:           c.man.Name,
		Input:          out.input,
		Session:        session(opts),
		CallID:         orDefault(opts.CallID, DefaultCallID),
		Today:          orDefault(opts.Today, DefaultToday),
		MaxResultBytes: maxBytes(opts),
		OnActivity:     c.rec.Activity,
	}
	if opts.Answers != nil {
		c.req.CanAsk = modapi.Kinds
	}
	inClient, noClient, cannot := callflow.Where(c.man.Name, c.man.Runs, opts.Client != nil)
	s := &callflow.Steps[*Outcome]{
		Prepare: func(context.Context) (*Outcome, bool) {
			if cannot {
				return out.endAs(noClient), true
			}
			return nil, false
		},
		Approve: c.approve,
		Call:    c.call,
		Ask:     c.ask,
		Outcome: c.outcome,
	}
	if opts.Hooks || inClient {
		s.Check = c.check
	}
	if opts.Hooks {
		s.Hooks = c.hooks
	}
	if inClient {
		s.Client = func(ctx context.Context) *Outcome {
			callClientTool(ctx, c.g, &c.man, out, opts)
			return out
		}
	}
	return s
}

// check judges the input as the mod's generated validator does.
func (c *call) check(context.Context) (*Outcome, bool) {
	_, err := c.srv.Decode(c.man.Name, c.out.input)
	var ie *sdk.InputError
	switch {
	case errors.As(err, &ie):
		return c.out.endAs(callflow.InvalidInput(c.man.Name, ie.Problems, err)), true
	case err != nil:
		return c.out.endAs(callflow.Failed(err.Error(), err)), true
	}
	return nil, false
}

// hooks runs the mod's own hooks on the tool call.
func (c *call) hooks(ctx context.Context) (*Outcome, bool) {
	refusal := hooks(ctx, c.srv, sdk.Action{Name: sdk.ActionToolCall, Tool: c.man.Name, Input: c.out.input}, c.opts)
	if refusal == "" {
		return nil, false
	}
	return c.out.endAs(callflow.Failed(words.Blocked(modID(c.g), refusal), errors.New(refusal))), true
}

// approve runs the approval step with Options.Approver.
func (c *call) approve(ctx context.Context) (*Outcome, bool) {
	return c.out, !approve(ctx, c.srv, &c.man, &modapi.ApprovalRequest{
		Tool: c.man.Name, Input: c.out.input, Session: c.req.Session, Today: c.req.Today, Run: modapi.Run{CallID: c.req.CallID},
	}, c.opts, c.out)
}

// call runs the handler once, with the answers given so far.
func (c *call) call(ctx context.Context, answers []modapi.Answered) (*modapi.CallResponse, *Outcome, bool) {
	if c.start.IsZero() {
		c.rec.watch(ctx)
		c.start = time.Now()
	}
	c.out.Runs++
	c.req.Answers = answers
	resp, _ := c.srv.CallTool(ctx, c.req)
	c.end = time.Now()
	if resp.Outcome.Status == modapi.StatusCompleted {
		if key := unasked(c.opts.Answers, c.out.Questions); key != "" {
			return nil, c.ended(callflow.Failed(fmt.Sprintf("modtest: Options.Answers answers question %q, which the handler never asked", key), nil)), true
		}
	}
	return resp, nil, false
}

// ask answers a run's questions from Options.Answers.
func (c *call) ask(_ context.Context, given []modapi.Answered, asked []modapi.Question) ([]modapi.Answered, *Outcome, bool) {
	answers, msg := answerFrom(c.opts, asked, given, &c.out.Questions, c.man.Name)
	if msg != "" {
		return nil, c.ended(callflow.Failed(msg, nil)), true
	}
	return answers, nil, false
}

// outcome ends the call with the handler's outcome, and times it.
func (c *call) outcome(resp *modapi.CallResponse) *Outcome {
	o, out := &resp.Outcome, c.out
	c.ended(callflow.Completed(c.man.Name, o))
	out.Elapsed = c.end.Sub(c.start)
	switch o.Status {
	case modapi.StatusCancelled:
		if c.rec.cancelledAt.IsZero() {
			// Cancelled from outside, and the handler noticed before the
			// watcher ran.
			c.rec.cancelledAt = c.end
		}
		out.SinceCancel = c.end.Sub(c.rec.cancelledAt)
	case modapi.StatusCompleted:
		out.Result, out.Outputs, out.Actions = o.Result, o.Outputs, o.Actions
	}
	return out
}

// ended ends the call as e says once the handler ran: nothing more is
// recorded.
func (c *call) ended(e callflow.Ending) *Outcome {
	c.rec.mu.Lock()
	defer c.rec.mu.Unlock()
	c.rec.done = true
	return c.out.endAs(e)
}

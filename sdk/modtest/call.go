package modtest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// call is one tool call under modtest: a host's pipeline
// (internal/callflow) over the server code a mod process runs, with the
// person, the client and the answers scripted by Options. It is the
// pipeline's environment: a mod in this process (callflow.Local), whose
// handler's runs it times.
type call struct {
	callflow.Local
	g    *sdk.Generated
	man  manifest.Tool
	opts *Options
	out  *Outcome
	rec  *recorder
	// checkActions holds the client actions to the manifest, when the
	// mod has one.
	checkActions func([]sdk.ClientAction) string
	// start and end time the handler's runs.
	start, end time.Time
	// validate, when set, judges the input in the confined process's
	// place (confinedMod.validate).
	validate func(manifest.Tool, json.RawMessage) ([]string, json.RawMessage, bool)
}

// Validate judges the input in the mod's place when the mod runs
// confined; else the mod's own decoding judges it.
func (c *call) Validate(input json.RawMessage) ([]string, json.RawMessage, bool) {
	if c.validate == nil {
		return nil, nil, false
	}
	return c.validate(c.man, input)
}

// flow is the call as the pipeline runs it.
func (c *call) flow() *callflow.Call {
	opts, out := c.opts, c.out
	f := &callflow.Call{
		Env: c, ModID: modID(c.g), Tool: &c.man, Input: out.input, Session: session(opts), Caller: opts.Caller,
		CallID: orDefault(opts.CallID, DefaultCallID), Today: orDefault(opts.Today, DefaultToday),
		MaxResultBytes: maxBytes(opts), OnActivity: c.rec.Activity,
		// Without a manifest, the tool's own code says whether it has a
		// rule.
		Approval: c.man.Approval != nil || len(c.g.Manifest) == 0, Approver: opts.Approver,
		CheckResult: resultCheck(c.g, c.man), CheckActions: c.checkActions, Questions: c,
	}
	if opts.Answers != nil {
		f.CanAsk = modapi.Kinds
	}
	if opts.Hooks {
		f.Hooks = func(ctx context.Context, req *modapi.ActionRequest) (string, error) {
			resp, _ := c.M.BeforeAction(ctx, req)
			if resp.Refusal == "" {
				return "", nil
			}
			return words.Blocked(modID(c.g), resp.Refusal), nil
		}
	}
	if opts.Client != nil {
		f.Client, f.ClientTimeout = c.client, opts.Client.Timeout
		if f.ClientTimeout <= 0 {
			f.ClientTimeout = DefaultClientTimeout
		}
	}
	return f
}

// run runs the call and records its outcome.
func (c *call) run(ctx context.Context) *Outcome {
	o := c.flow().Run(ctx)
	c.rec.mu.Lock()
	defer c.rec.mu.Unlock()
	c.rec.done = true // nothing more is recorded
	out := c.out
	out.endAs(o.Ending)
	out.ApprovalReason = o.ApprovalReason
	out.Result, out.Outputs, out.Actions = o.Result, o.Outputs, o.Actions
	if !o.Handled {
		return out
	}
	out.Elapsed = c.end.Sub(c.start)
	if out.Status == StatusCancelled {
		if c.rec.cancelledAt.IsZero() {
			// Cancelled from outside, and the handler noticed before the
			// watcher ran.
			c.rec.cancelledAt = c.end
		}
		out.SinceCancel = c.end.Sub(c.rec.cancelledAt)
	}
	return out
}

// Handle runs the handler once and times it; a call that completes
// without using every scripted answer fails.
func (c *call) Handle(ctx context.Context, m modapi.Mod, req *modapi.CallRequest) (*modapi.CallResponse, callflow.Ending, bool) {
	if c.start.IsZero() {
		c.rec.watch(ctx)
		c.start = time.Now()
	}
	c.out.Runs++
	resp, err := m.CallTool(ctx, req)
	c.end = time.Now()
	if err != nil { // the confined process failed
		return nil, c.Failure(ctx, err), true
	}
	if resp.Outcome.Status == modapi.StatusCompleted {
		if key := unasked(c.opts.Answers, c.out.Questions); key != "" {
			return nil, callflow.Failed(fmt.Sprintf("modtest: Options.Answers answers question %q, which the handler never asked", key), nil), true
		}
	}
	return resp, callflow.Ending{}, false
}

// Answers implements callflow.Questions: a handler's first run has none.
func (c *call) Answers() []modapi.Answered { return nil }

// CanAskNow implements callflow.Questions: the kinds stay.
func (c *call) CanAskNow(before []modapi.QuestionKind) []modapi.QuestionKind { return before }

// Ask answers a run's questions from Options.Answers.
func (c *call) Ask(_ context.Context, given []modapi.Answered, asked []modapi.Question) ([]modapi.Answered, callflow.Ending, bool) {
	answers, msg := answerFrom(c.opts, asked, given, &c.out.Questions, c.man.Name)
	if msg != "" {
		return nil, callflow.Failed(msg, nil), true
	}
	return answers, callflow.Ending{}, false
}

// client is the scripted client: it answers with Client.Answers, the
// first counting, and never answers without any, which fails the call at
// once as a host's does when its client timeout passes.
func (c *call) client(ctx context.Context, input json.RawMessage) (sdk.ClientAnswer, error) {
	c.out.ClientInput = input
	gate := modapi.NewClientGate(func(a sdk.ClientAnswer, _ string) {
		c.out.DroppedAnswers = append(c.out.DroppedAnswers, a)
	})
	for _, a := range c.opts.Client.Answers {
		gate.Reply(a)
	}
	switch {
	case ctx.Err() != nil:
		return sdk.ClientAnswer{}, ctx.Err()
	case len(c.opts.Client.Answers) == 0:
		return sdk.ClientAnswer{}, modapi.ErrClientTimeout
	}
	return gate.Wait(ctx, 0)
}

// inProcessMod is the mod's server code as modtest calls it: an approval rule
// that finds the input invalid leaves it to the call itself to report, as
// the handler's own decoding words it.
type inProcessMod struct{ approvingMod }

// approvingMod is a mod with its approval rule: the server code, or a
// confined process's client.
type approvingMod interface {
	modapi.Mod
	modapi.ApprovalRule
}

func (m inProcessMod) NeedsApproval(ctx context.Context, req *modapi.ApprovalRequest) (*modapi.ApprovalResponse, error) {
	resp, err := m.approvingMod.NeedsApproval(ctx, req)
	if err == nil && len(resp.Problems) > 0 {
		return &modapi.ApprovalResponse{}, nil
	}
	return resp, err
}

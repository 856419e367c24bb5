package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// StatusDenied is the outcome of a call a person was asked to approve and
// declined: the handler never ran.
const StatusDenied Status = "denied"

// Approver asks a person whether a call may run, and reports their answer:
// true to run it. An error fails the call ("approval for tool <name> could
// not be asked: <error>"). The tool's approval rule, in the mod, decides
// whether the approver is asked; sdk/modtest's Approver scripts the same
// person.
//
// The host calls it from the call's goroutine, with the call's context,
// after the input was judged valid and the hooks let the call through,
// only when the tool's approval rule (in the mod) says the call needs
// approval. A call cancelled while the approver waits ends cancelled,
// whatever the approver returns, so an approver should return when ctx
// ends. The wait counts toward neither the call's timeout nor the mod's
// grace period: the handler has not started.
type Approver func(ctx context.Context, req *ApprovalRequest) (approved bool, err error)

// ApprovalRequest is what an Approver shows a person.
type ApprovalRequest struct {
	// Tool is the tool's name; Title is its name for people, if any.
	Tool, Title string
	// CallID is the host's id for the call; Label is CallRequest.Label.
	CallID, Label string
	// Reason is what the person reads: what the call will do, in the
	// mod's words.
	Reason string
	// Input is the call's input, judged valid.
	Input json.RawMessage
	// Session is the calling session; Agent the calling agent, if any.
	Session sdk.Session
	Agent   string
	// Annotations are the tool's declared behaviour, nil when it declares
	// none. Question says the destructive ones are.
	Annotations *manifest.Annotations
}

// Question is what to ask the person: the tool, whether it may delete or
// overwrite, and the reason. Every approver of modkit asks in these words.
func (r *ApprovalRequest) Question() string {
	return words.ApprovalQuestion(r.Tool, r.Title, r.Reason, r.Annotations != nil && r.Annotations.Destructive)
}

// approve runs the tool's approval rule in the mod and, when the call
// needs approval, asks req.Approver. It returns the call's outcome when
// the call must not run: denied, failed or cancelled.
func (h *Host) approve(ctx context.Context, t *tool, p *proc, req *CallRequest, res *CallResult, input json.RawMessage, today string, qs *questioning) *CallResult {
	a, ok := p.rpc.(modapi.ApprovalRule)
	if !ok {
		return res.fail(fmt.Sprintf("mod %s cannot say whether a call needs approval", t.mod.man.ID))
	}
	rule := &modapi.ApprovalRequest{
		Tool: req.Tool, Input: input, Session: req.Session, Today: today,
		Run: modapi.Run{CallID: res.CallID, Grace: h.grace()},
	}
	// The rule is the mod's code, bounded like a hook.
	resp, err := bounded(ctx, p, "approval rule of tool "+req.Tool, res.CallID, h.opts.HookTimeout,
		func(ctx context.Context) (*modapi.ApprovalResponse, error) { return a.NeedsApproval(ctx, rule) })
	switch {
	case ctx.Err() != nil:
		return res.cancelled()
	case err != nil:
		return res.fail(err.Error())
	}
	var ask func(reason string) (string, error)
	switch {
	case req.Approver != nil:
		ask = func(reason string) (string, error) {
			areq := &ApprovalRequest{
				Tool: req.Tool, Title: t.man.Title, CallID: res.CallID, Label: req.Label, Reason: reason,
				Input: input, Session: req.Session, Agent: req.Agent,
			}
			if a := t.man.Annotations; a != nil {
				copied := *a
				areq.Annotations = &copied
			}
			if ok, err := req.Approver(ctx, areq); ok || err != nil {
				return "accept", err
			}
			return "decline", nil
		}
	case req.Asker != nil && req.Asker.CanAsk(AskForm):
		ask = func(reason string) (string, error) {
			areq := &ApprovalRequest{Tool: req.Tool, Title: t.man.Title, Reason: reason, Annotations: t.man.Annotations}
			return qs.approve(ctx, areq.Question())
		}
	}
	step := modapi.DecideAction(ctx, req.Tool, resp, ask)
	res.ApprovalReason = step.Reason
	if errors.Is(step.Err, ErrAskLater) {
		return res.asking(res.Questions)
	}
	switch step.Verdict {
	case modapi.ApprovalDismissed:
		return res.dismissed(step.Reason)
	case modapi.ApprovalFailed:
		return res.fail(step.Failure)
	case modapi.ApprovalDenied:
		return res.denied(step.Reason)
	case modapi.ApprovalCancelled:
		return res.cancelled()
	}
	return nil
}

func (r *CallResult) dismissed(reason string) *CallResult {
	r.Activity.Ended = true
	r.Status = StatusDenied
	r.Error = words.DismissedError
	r.Text = words.Dismissed(r.Tool, reason)
	return r
}

func (r *CallResult) denied(reason string) *CallResult {
	r.Activity.Ended = true
	r.Status = StatusDenied
	r.Error = words.Declined
	r.Text = words.Denied(r.Tool, reason)
	return r
}

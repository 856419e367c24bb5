package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modkit/modkit/internal/approval"
	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
)

// StatusDenied is the outcome of a call a person was asked to approve and
// declined: the handler never ran.
const StatusDenied Status = "denied"

// Approver asks a person whether a call may run, and reports their answer:
// true to run it. An error fails the call ("approval for tool <name> could
// not be asked: <error>"). The tool's approval rule, in the mod, decides
// whether the approver is asked. It is the one shape of an approver:
// sdk/modtest's Approver is the same type, so an approver runs under
// either.
//
// The host calls it from the call's goroutine, with the call's context,
// after the input was judged valid and the hooks let the call through,
// only when the tool's approval rule (in the mod) says the call needs
// approval. A call cancelled while the approver waits ends cancelled,
// whatever the approver returns, so an approver should return when ctx
// ends. The wait counts toward neither the call's timeout nor the mod's
// grace period: the handler has not started.
type Approver = approval.Approver

// ApprovalRequest is what an Approver shows a person: the tool, the
// call's ids, the reason, the valid input, the session and agent, and the
// tool's annotations. Its Question method is what to ask, in the words
// every approver of modkit uses.
type ApprovalRequest = approval.Request

// approve runs the tool's approval step (callflow.Approve): the rule in
// the mod and, when the call needs approval, req.Approver, or else the
// approval question through req.Asker. It returns the call's outcome when
// the call must not run: denied, failed, cancelled or asking.
func (h *Host) approve(ctx context.Context, t *tool, p *proc, req *CallRequest, res *CallResult, input json.RawMessage, today string, qs *questioning) *CallResult {
	a, ok := p.rpc.(modapi.ApprovalRule)
	if !ok {
		return res.fail(fmt.Sprintf("mod %s cannot say whether a call needs approval", t.mod.man.ID))
	}
	rule := &modapi.ApprovalRequest{
		Tool: req.Tool, Input: input, Session: req.Session, Today: today,
		Run: modapi.Run{CallID: res.CallID, Grace: h.grace()},
	}
	var ask func(reason string) (string, error)
	switch {
	case req.Approver != nil:
		ask = callflow.AskApprover(ctx, req.Approver, func(reason string) *ApprovalRequest {
			areq := approval.For(&t.man, reason)
			areq.CallID, areq.Label, areq.Input, areq.Session, areq.Agent = res.CallID, req.Label, input, req.Session, req.Agent
			return areq
		})
	case req.Asker != nil && req.Asker.CanAsk(AskForm):
		ask = func(reason string) (string, error) {
			return qs.approve(ctx, approval.For(&t.man, reason).Question())
		}
	}
	// The rule is the mod's code, bounded like a hook.
	step, end, refused := callflow.Approve(ctx, req.Tool, func(ctx context.Context) (*modapi.ApprovalResponse, error) {
		return bounded(ctx, p, "approval rule of tool "+req.Tool, res.CallID, h.opts.HookTimeout,
			func(ctx context.Context) (*modapi.ApprovalResponse, error) { return a.NeedsApproval(ctx, rule) })
	}, ask)
	res.ApprovalReason = step.Reason
	if errors.Is(step.Err, ErrAskLater) {
		return res.asking(res.Questions)
	}
	if refused {
		return res.endAs(end)
	}
	return nil
}

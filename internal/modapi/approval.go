package modapi

import (
	"context"
	"encoding/json"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// ApprovalRule is implemented by mods that can say whether a call needs
// a person's approval: the rule is the mod's; the approver, who answers
// for the person, is the host's caller's. It is its own interface, beside
// Mod, so that a mod without it stays a Mod.
type ApprovalRule interface {
	// NeedsApproval decides, in the mod, whether a call with this input
	// needs approval and why.
	NeedsApproval(ctx context.Context, req *ApprovalRequest) (*ApprovalResponse, error)
}

// ApprovalRequest asks the mod whether a tool call needs approval.
type ApprovalRequest struct {
	Tool string
	// Input is the tool input, already judged valid.
	Input   json.RawMessage
	Session sdk.Session
	// Caller is who the call is made for, as in CallRequest.
	Caller *sdk.Caller
	// Today is the host's date, "YYYY-MM-DD".
	Today string
	// Run carries the tool call's own id, so that the mod tracks the
	// decision as part of the call.
	Run
}

// ApprovalResponse is the mod's decision.
type ApprovalResponse struct {
	// Reason is what the person reads when asked; empty when the call
	// needs no approval.
	Reason string
	// Error says why the mod could not decide; the call fails.
	Error string
	// Problems are set when the input broke the tool's contract.
	Problems []string
}

// ApprovalVerdict is how the approval step of a call ended.
type ApprovalVerdict int

// The ends of an approval step.
const (
	// ApprovalRun: the call needs no approval, or the person approved it.
	ApprovalRun ApprovalVerdict = iota
	// ApprovalFailed: the rule failed or nobody could be asked; the call
	// fails.
	ApprovalFailed
	// ApprovalDenied: the person declined; the call ends denied.
	ApprovalDenied
	// ApprovalCancelled: the call was cancelled while the person was
	// asked.
	ApprovalCancelled
	// ApprovalDismissed: the person dismissed the question without
	// choosing; the call ends denied.
	ApprovalDismissed
)

// ApprovalStep is the end of a call's approval step.
type ApprovalStep struct {
	Verdict ApprovalVerdict
	// Reason is what the person was asked, cut to MaxReasonBytes; "" when
	// the call needed no approval.
	Reason string
	// Failure is why the call failed, as the model reads it after "Tool
	// failed: ".
	Failure string
	// Err is the approver's error, if it returned one.
	Err error
}

// Decide ends the approval step of a call of tool once its approval rule
// answered resp: the rule's problems or error fail the call, no reason
// runs it, and a reason is put to the person through ask (nil when nobody
// can be asked: the call fails), who answers "accept", "decline" or
// "cancel" (dismissed the question: ApprovalDismissed). A call whose ctx
// ends while the person is asked is cancelled, whatever they answer.
func Decide(ctx context.Context, tool string, resp *ApprovalResponse, ask func(reason string) (action string, err error)) ApprovalStep {
	switch {
	case len(resp.Problems) > 0:
		return ApprovalStep{Verdict: ApprovalFailed, Failure: words.InvalidInput(tool, resp.Problems)}
	case resp.Error != "":
		return ApprovalStep{Verdict: ApprovalFailed, Failure: resp.Error}
	case resp.Reason == "":
		return ApprovalStep{Verdict: ApprovalRun}
	}
	s := ApprovalStep{Reason: CapReason(resp.Reason)}
	if ask == nil {
		s.Verdict, s.Failure = ApprovalFailed, words.NoApprover(tool, s.Reason)
		return s
	}
	action, err := ask(s.Reason)
	s.Err = err
	switch {
	case ctx.Err() != nil:
		s.Verdict = ApprovalCancelled
	case err != nil:
		s.Verdict, s.Failure = ApprovalFailed, words.NotAsked(tool, err)
	case action == "cancel":
		s.Verdict = ApprovalDismissed
	case action != "accept":
		s.Verdict = ApprovalDenied
	default:
		s.Verdict = ApprovalRun
	}
	return s
}

// MaxReasonBytes caps an approval reason: a person reads it in a prompt.
const MaxReasonBytes = 1024

// CapReason cuts an approval reason to MaxReasonBytes.
func CapReason(reason string) string { return limits.Cut(reason, MaxReasonBytes) }

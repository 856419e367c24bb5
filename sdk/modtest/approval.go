package modtest

import (
	"context"
	"errors"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/internal/words"
)

// Approver scripts the person asked to approve a call, as a host's
// approver (host.Approver) would: reason is what they read, the Reason of
// the host's ApprovalRequest. The mod's approval rule decides whether
// the approver is asked. Use Approve, Deny or
// NeverAnswer, or a function of your own to record what was asked.
type Approver func(ctx context.Context, reason string) (approved bool, err error)

// Approve approves every call it is asked about.
func Approve(context.Context, string) (bool, error) { return true, nil }

// Deny declines every call it is asked about.
func Deny(context.Context, string) (bool, error) { return false, nil }

// NeverAnswer never answers: it returns only when the call is cancelled
// (Options.Context), which then ends cancelled.
func NeverAnswer(ctx context.Context, _ string) (bool, error) {
	<-ctx.Done()
	return false, ctx.Err()
}

// approve runs the tool's approval rule on the call's input and asks
// opts.Approver when the call needs approval. It reports whether the
// call may run; when it may not, out holds the outcome. Invalid input is
// left for the call itself to report.
func approve(ctx context.Context, srv *modserver.Server, req *modapi.ApprovalRequest, opts *Options, out *Outcome) bool {
	resp, _ := srv.NeedsApproval(ctx, req)
	if len(resp.Problems) > 0 {
		return true
	}
	var ask func(reason string) (bool, error)
	if opts.Approver != nil {
		ask = func(reason string) (bool, error) { return opts.Approver(ctx, reason) }
	}
	step := modapi.Decide(ctx, req.Tool, resp, ask)
	out.ApprovalReason = step.Reason
	switch step.Verdict {
	case modapi.ApprovalRun:
		return true
	case modapi.ApprovalFailed:
		err := step.Err
		if err == nil {
			err = errors.New(step.Failure)
		}
		out.fail(step.Failure, err)
	case modapi.ApprovalDenied:
		out.Status = StatusDenied
		out.Text = words.Denied(req.Tool, step.Reason)
		out.msg = words.Declined
		out.Activity.Ended = true
	case modapi.ApprovalCancelled:
		out.Status = StatusCancelled
		out.Err = step.Err
		out.Activity.Ended = true
	}
	return false
}

package modtest

import (
	"context"
	"errors"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
)

// Denied is the outcome of a call whose approval the person declined: the
// handler never ran.
const Denied Status = "denied"

// Approver scripts the person asked to approve a call, as a host's
// approver would: reason is what they read. Use Approve, Deny or
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
	switch {
	case len(resp.Problems) > 0:
		return true
	case resp.Error != "":
		out.fail(resp.Error, errors.New(resp.Error))
		return false
	case resp.Reason == "":
		return true
	}
	out.ApprovalReason = resp.Reason
	if opts.Approver == nil {
		msg := modapi.NoApprover(req.Tool, resp.Reason)
		out.fail(msg, errors.New(msg))
		return false
	}
	approved, err := opts.Approver(ctx, resp.Reason)
	switch {
	case ctx.Err() != nil:
		out.Status = Cancelled
		out.Err = err
		out.Activity.Ended = true
	case err != nil:
		out.fail(modapi.NotAsked(req.Tool, err), err)
	case !approved:
		out.Status = Denied
		out.Text = modapi.Denied(req.Tool, resp.Reason)
		out.msg = modapi.Declined
		out.Activity.Ended = true
	default:
		return true
	}
	return false
}

package modtest

import (
	"context"

	"github.com/modkit/modkit/internal/approval"
	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/manifest"
)

// Approver scripts the person asked to approve a call. It is host.Approver
// itself, so an approver written for a host runs here: req.Reason is what
// the person reads, req.Question() what a host's approver asks. The mod's
// approval rule decides whether the approver is asked. Use Approve, Deny
// or NeverAnswer, or a function of your own to record what was asked.
type Approver = approval.Approver

// ApprovalRequest is what an Approver is shown: host.ApprovalRequest. Under
// modtest it has the tool's name, title and annotations (from the
// manifest, when the mod has one), the call's id, the reason, the input
// and the session; Label and Agent are empty.
type ApprovalRequest = approval.Request

// Approve approves every call it is asked about.
func Approve(context.Context, *ApprovalRequest) (bool, error) { return true, nil }

// Deny declines every call it is asked about.
func Deny(context.Context, *ApprovalRequest) (bool, error) { return false, nil }

// NeverAnswer never answers: it returns only when the call is cancelled
// (Options.Context), which then ends cancelled.
func NeverAnswer(ctx context.Context, _ *ApprovalRequest) (bool, error) {
	<-ctx.Done()
	return false, ctx.Err()
}

// approve runs the approval step of a call of tool man (callflow.Approve)
// through srv, asking opts.Approver when the call needs approval. It
// reports whether the call may run; when it may not, out holds the
// outcome. Invalid input is left for the call itself to report.
func approve(ctx context.Context, srv *modserver.Server, man *manifest.Tool, req *modapi.ApprovalRequest, opts *Options, out *Outcome) bool {
	var ask func(reason string) (string, error)
	if opts.Approver != nil {
		ask = callflow.AskApprover(ctx, opts.Approver, func(reason string) *ApprovalRequest {
			r := approval.For(man, reason)
			r.CallID, r.Input, r.Session = req.CallID, req.Input, req.Session
			return r
		})
	}
	step, end, refused := callflow.Approve(ctx, req.Tool, func(ctx context.Context) (*modapi.ApprovalResponse, error) {
		resp, err := srv.NeedsApproval(ctx, req)
		if err == nil && len(resp.Problems) > 0 {
			return &modapi.ApprovalResponse{}, nil
		}
		return resp, err
	}, ask)
	out.ApprovalReason = step.Reason
	if refused {
		out.endAs(end)
	}
	return !refused
}

package modtest

import (
	"context"

	"github.com/modkit/modkit/internal/approval"
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

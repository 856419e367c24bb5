package callflow

import (
	"context"

	"github.com/modkit/modkit/internal/approval"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

// Approve is the approval step of a call of tool: rule runs the tool's
// approval rule in the mod, and ask, when the rule gives a reason, puts it
// to the person ("accept", "decline" or "cancel"; nil when nobody can be
// asked). It returns the step, and the call's ending when it must not run
// (Refused). A rule that cannot run fails the call; a call whose ctx ends
// meanwhile is cancelled.
func Approve(ctx context.Context, tool string, rule func(ctx context.Context) (*modapi.ApprovalResponse, error),
	ask func(reason string) (action string, err error),
) (modapi.ApprovalStep, Ending, bool) {
	resp, err := rule(ctx)
	switch {
	case ctx.Err() != nil:
		return modapi.ApprovalStep{Verdict: modapi.ApprovalCancelled}, Cancelled(ctx.Err()), true
	case err != nil:
		return modapi.ApprovalStep{Verdict: modapi.ApprovalFailed, Failure: err.Error(), Err: err}, Failed(err.Error(), err), true
	}
	step := modapi.Decide(ctx, tool, resp, ask)
	end, refused := Refused(tool, step)
	return step, end, refused
}

// AskApprover is the approval question put to approver: the request that
// req builds from the reason, approved when it answers true or fails.
func AskApprover(ctx context.Context, approver approval.Approver, req func(reason string) *approval.Request) func(reason string) (string, error) {
	return func(reason string) (string, error) {
		if ok, err := approver(ctx, req(reason)); ok || err != nil {
			return "accept", err
		}
		return "decline", nil
	}
}

// Hooks runs the hooks before action in their order (HookOrder) through
// run, which runs those on one action and returns a refusal or an error,
// and returns the first.
func Hooks(ctx context.Context, action sdk.Action, run func(ctx context.Context, a sdk.Action) (refusal string, err error)) (string, error) {
	for _, a := range HookOrder(action) {
		if refusal, err := run(ctx, a); refusal != "" || err != nil {
			return refusal, err
		}
	}
	return "", nil
}

package sdk

import (
	"context"
	"fmt"

	"github.com/modkit/modkit/internal/sdkrt"
)

// Approval says that a tool needs a person's approval before it runs:
// before every call, or before the calls its Ask function picks from the
// input. The host asks a person (an approver the embedding application
// supplies) after the input was validated and the hooks let the call
// through; when the person declines, the call ends denied, the model reads
// that the person declined, and Run never runs.
//
// Set Reason or Ask, not both; modgen reports either mistake.
type Approval[In any] struct {
	// Reason, when every call needs approval, is what the person reads:
	// "Delete the workspace's build cache". It must be a compile-time
	// constant, so the manifest can say it.
	Reason string
	// Ask, when set, decides per call, in the mod, from the validated
	// input: it returns what the person reads, naming what the call will
	// do ("Overwrite notes/todo.md"), or "" when this call needs no
	// approval. An error fails the call. Ask runs before Run, with the
	// same ToolContext methods (its activity updates and client actions
	// are dropped: nothing runs yet); keep it quick and free of side
	// effects.
	Ask func(tc *ToolContext, in In) (string, error)
}

// needsApproval runs a's rule on input for the tool name.
func (a *Approval[In]) needsApproval(ctx context.Context, name string, call sdkrt.Call, input any) (string, error) {
	if a == nil {
		return "", nil
	}
	in, err := checkInput[In](input)
	if err != nil {
		return "", err
	}
	if a.Ask == nil {
		if a.Reason == "" {
			return fmt.Sprintf("Run %s", name), nil
		}
		return a.Reason, nil
	}
	call.Activity = nil // nothing runs yet: updates go nowhere
	tc := newToolContext(ctx, call)
	defer tc.end() // even when Ask panics
	return a.Ask(tc, in)
}

// NeedsApproval implements sdkrt.Approving.
func (r plainRuntime[In]) NeedsApproval(ctx context.Context, call sdkrt.Call, input any) (string, error) {
	return r.t.Approval.needsApproval(ctx, r.t.Name, call, input)
}

// NeedsApproval implements sdkrt.Approving.
func (r renderedRuntime[In, Out]) NeedsApproval(ctx context.Context, call sdkrt.Call, input any) (string, error) {
	return r.t.Approval.needsApproval(ctx, r.t.Name, call, input)
}

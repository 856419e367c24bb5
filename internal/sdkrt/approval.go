package sdkrt

import "context"

// Approving is implemented by every sdk tool: it runs the tool's approval
// rule on a call's decoded input.
type Approving interface {
	// NeedsApproval returns what the person reads before the call runs, or
	// "" when the call needs no approval. An input type's Validate error is
	// an *sdk.InputError.
	NeedsApproval(ctx context.Context, call Call, input any) (reason string, err error)
}

package mcpbridge

import (
	"context"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/sdk"
)

// callerOf is who a request's call is made for, as the tool's handler
// reads it: the principal of its verified access token, or else local,
// the local user (made once per server: a caller is only read).
func callerOf(ctx context.Context, local *sdk.Caller) *sdk.Caller {
	if p := mcpauth.PrincipalFrom(ctx); p != nil {
		return p.Caller
	}
	return local
}

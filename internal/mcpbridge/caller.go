package mcpbridge

import (
	"context"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/sdk"
)

// callerOf is who a request's call is made for, as the tool's handler
// reads it: the principal of its verified access token, or else the
// local user holding scopes (Options.Scopes; nil: every scope).
func callerOf(ctx context.Context, scopes []string) *sdk.Caller {
	if p := mcpauth.PrincipalFrom(ctx); p != nil {
		return p.Caller
	}
	return host.LocalCaller(scopes)
}

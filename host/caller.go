package host

import (
	"slices"

	"github.com/modkit/modkit/internal/audit"
	"github.com/modkit/modkit/sdk"
)

// LocalCaller returns the local user as a call's caller
// (CallRequest.Caller), as stdio, the CLI and the workbench name it:
// Subject "local:" and the user's name ("local:uid:N" when the user has
// no name), holding every scope when scopes is nil, else only scopes.
func LocalCaller(scopes []string) *sdk.Caller {
	c := &sdk.Caller{Subject: audit.LocalPrincipal().Sub, Local: true, AllScopes: scopes == nil}
	if scopes != nil {
		c.Scopes = slices.Clone(scopes)
	}
	return c
}

package sdk

import (
	"encoding/json"
	"slices"
)

// Caller is who a tool call is made for, as the host names it: over MCP's
// HTTP transport, the principal of the verified OAuth access token; over
// stdio, the CLI and the workbench, the local user. It never holds the
// token itself. A handler reads it with [ToolContext.Caller], to decide
// what this caller may see or to record who did what; the host has
// already refused a call whose tool needs a scope the caller lacks.
type Caller struct {
	// Subject names the caller: a token's sub claim as the authorization
	// server issued it (empty for a client credentials token without
	// one: ClientID then names the caller), or, when Local, "local:" and
	// the local user's name.
	Subject string `json:"subject"`
	// ClientID is the OAuth client the token was issued to (its client_id
	// or azp claim); empty for the local user.
	ClientID string `json:"clientId,omitempty"`
	// Scopes are the OAuth scopes the caller holds: those the token
	// grants, or those the local user was narrowed to (modhost --scopes).
	// Empty when AllScopes.
	Scopes []string `json:"scopes,omitempty"`
	// AllScopes reports a caller holding every scope: the local user,
	// unless narrowed.
	AllScopes bool `json:"allScopes,omitempty"`
	// Local reports the local user rather than a token's principal. No
	// token's subject makes it true.
	Local bool `json:"local,omitempty"`
	// Claims are the token's claims the operator passes on to handlers
	// (modhost mcp --auth-claims email,groups), by name, each as the
	// token carries it, in JSON: "email" a JSON string, "groups" perhaps
	// an array. A claim the operator does not pass on, or the token does
	// not carry, is absent; the local user has none.
	Claims map[string]json.RawMessage `json:"claims,omitempty"`
}

// HasScope reports whether the caller holds scope.
func (c Caller) HasScope(scope string) bool {
	return c.AllScopes || slices.Contains(c.Scopes, scope)
}

// Caller returns who the call is made for. It is the zero Caller when the
// host named nobody: an application embedding the host that did not say.
// Treat its slices and map as read-only.
func (c *ToolContext) Caller() Caller {
	if p, _ := c.call.Caller.(*Caller); p != nil {
		return *p
	}
	return Caller{}
}

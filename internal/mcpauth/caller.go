package mcpauth

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/modkit/modkit/sdk"
)

// Key names the principal across its tokens, as a session, a task and a
// request state are bound to it: the issuer and the subject, or the
// client id when the token has no subject.
func (p *Principal) Key() string {
	if p.key != "" {
		return p.key // Verify's, cached with the principal
	}
	return keyOf(p)
}

func keyOf(p *Principal) string {
	var iss string
	json.Unmarshal(p.Claims["iss"], &iss)
	if p.Subject != "" {
		return iss + " sub " + strconv.Quote(p.Subject)
	}
	return iss + " client_id " + strconv.Quote(p.ClientID)
}

// callerOf is p as a tool's handler reads it: never the token, and of
// its claims only those of pass that it carries.
func callerOf(p *Principal, pass []string) *sdk.Caller {
	c := &sdk.Caller{Subject: p.Subject, ClientID: p.ClientID, Scopes: p.Scopes}
	for _, name := range pass {
		if v, ok := p.Claims[name]; ok {
			if c.Claims == nil {
				c.Claims = map[string]json.RawMessage{}
			}
			c.Claims[name] = v
		}
	}
	return c
}

// checkClaims refuses a list of claims to pass on with an empty or a
// repeated name.
func checkClaims(names []string) error {
	seen := map[string]bool{}
	for i, name := range names {
		switch {
		case name == "":
			return fmt.Errorf("claim %d is empty", i+1)
		case seen[name]:
			return fmt.Errorf("claim %q is named twice", name)
		}
		seen[name] = true
	}
	return nil
}

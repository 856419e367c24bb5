package protocol

import (
	"encoding/json"

	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// callerToProto converts a call's caller for the wire; nil stays nil, so
// a call without one costs nothing.
func callerToProto(c *sdk.Caller) *pb.Caller {
	if c == nil {
		return nil
	}
	p := &pb.Caller{Subject: c.Subject, ClientId: c.ClientID, Scopes: c.Scopes, AllScopes: c.AllScopes, Local: c.Local}
	if len(c.Claims) > 0 {
		p.Claims = make(map[string][]byte, len(c.Claims))
		for k, v := range c.Claims {
			p.Claims[k] = v
		}
	}
	return p
}

// callerFromProto converts a wire caller; nil stays nil.
func callerFromProto(p *pb.Caller) *sdk.Caller {
	if p == nil {
		return nil
	}
	c := &sdk.Caller{Subject: p.GetSubject(), ClientID: p.GetClientId(), Scopes: p.GetScopes(), AllScopes: p.GetAllScopes(), Local: p.GetLocal()}
	if claims := p.GetClaims(); len(claims) > 0 {
		c.Claims = make(map[string]json.RawMessage, len(claims))
		for k, v := range claims {
			c.Claims[k] = v
		}
	}
	return c
}

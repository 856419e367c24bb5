package mcpbridge

import "github.com/modelcontextprotocol/go-sdk/mcp"

// askable is what a client declared it can be asked.
type askable struct {
	form, url, sample, roots bool
}

// askableOf reads what the client of a request declared it can be asked:
// from the request's _meta (2026-07-28), read in place, or from its
// session's initialize.
func askableOf[P mcp.Params](req *mcp.ServerRequest[P]) askable {
	if caps, ok := req.Params.GetMeta()[mcp.MetaKeyClientCapabilities].(map[string]any); ok {
		var a askable
		if el, ok := caps["elicitation"].(map[string]any); ok {
			_, form := el["form"].(map[string]any)
			_, url := el["url"].(map[string]any)
			a.form, a.url = form || !url, url
		}
		_, a.sample = caps["sampling"].(map[string]any)
		_, a.roots = caps["roots"].(map[string]any)
		return a
	}
	return askableFrom(req.ClientCapabilities())
}

// askableFrom reads what capabilities c declare can be asked.
func askableFrom(c *mcp.ClientCapabilities) askable {
	if c == nil {
		return askable{}
	}
	return askable{
		form:   formElicitation(c.Elicitation),
		url:    c.Elicitation != nil && c.Elicitation.URL != nil,
		sample: c.Sampling != nil,
		roots:  c.RootsV2 != nil,
	}
}

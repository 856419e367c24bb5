package mcpbridge

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/uritemplate"
)

// Scopes returns every scope that tools and fb's prompts, resources and
// resource templates declare, sorted: the scopes an authorization server
// may grant for what MCP serves. fb may be nil.
func Scopes(tools []host.Tool, fb FeatureBackend) []string {
	var all []string
	for _, t := range tools {
		all = append(all, t.Scopes...)
	}
	if fb != nil {
		for _, p := range fb.Prompts() {
			all = append(all, p.Scopes...)
		}
		for _, r := range fb.Resources() {
			all = append(all, r.Scopes...)
		}
		for _, t := range fb.ResourceTemplates() {
			all = append(all, t.Scopes...)
		}
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// ResourceScopes are the scopes each resource and resource template
// needs, found for a URI as the host finds what reads it: the resource
// of that URI, else the first template, by URI template, that matches it.
type ResourceScopes struct {
	byURI     map[string][]string
	templates []scopedTemplate // sorted by URI template
	any       bool             // some resource or template needs a scope
}

type scopedTemplate struct {
	uriTemplate string
	parsed      *uritemplate.Template
	scopes      []string
}

// NewResourceScopes returns the scopes of resources and templates.
func NewResourceScopes(resources []host.Resource, templates []host.ResourceTemplate) *ResourceScopes {
	rs := &ResourceScopes{byURI: map[string][]string{}}
	for _, r := range resources {
		rs.byURI[r.URI] = r.Scopes
		rs.any = rs.any || len(r.Scopes) > 0
	}
	sorted := slices.SortedFunc(slices.Values(templates), func(a, b host.ResourceTemplate) int { return strings.Compare(a.URITemplate, b.URITemplate) })
	for _, t := range sorted {
		parsed, err := uritemplate.Parse(t.URITemplate)
		if err != nil {
			continue // the host refused the manifest
		}
		rs.templates = append(rs.templates, scopedTemplate{t.URITemplate, parsed, t.Scopes})
		rs.any = rs.any || len(t.Scopes) > 0
	}
	return rs
}

// Need returns the scopes reading uri needs.
func (rs *ResourceScopes) Need(uri string) []string {
	if rs == nil || !rs.any {
		return nil
	}
	if s, ok := rs.byURI[uri]; ok {
		return s
	}
	for _, t := range rs.templates {
		if _, ok := t.parsed.Match(uri); ok {
			return t.scopes
		}
	}
	return nil
}

// template returns the scopes of the template uriTemplate.
func (rs *ResourceScopes) template(uriTemplate string) []string {
	if rs == nil {
		return nil
	}
	for _, t := range rs.templates {
		if t.uriTemplate == uriTemplate {
			return t.scopes
		}
	}
	return nil
}

// MissingScopes returns the scopes of need that granted lacks; granted
// nil holds every scope.
func MissingScopes(granted, need []string) []string {
	if granted == nil {
		return nil
	}
	var out []string
	for _, sc := range need {
		if !slices.Contains(granted, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// outOfScopeResource is the error of a read of (or a subscription to) a
// resource the caller may not use.
func outOfScopeResource(uri string, need []string) error {
	return outOfScope("resource "+uri, need)
}

// outOfScope is the error of a request for what, which needs the scopes
// need that the caller lacks.
func outOfScope(what string, need []string) error {
	return &jsonrpc.Error{Code: mcpauth.CodeUnauthorized, Message: "insufficient scope: " + what + " needs the scopes " + strings.Join(need, " ")}
}

// checkResourceScope refuses a read of uri whose scopes the request does
// not hold.
func (br *bridge) checkResourceScope(uri string, extra *mcp.RequestExtra) error {
	need := br.now().resourceScopes.Need(uri)
	if len(MissingScopes(br.grant(extra), need)) > 0 {
		return outOfScopeResource(uri, need)
	}
	return nil
}

// toolScopes are the scopes each tool (or prompt) needs, by name, for
// those that need any.
type toolScopes map[string][]string

// grant returns the scopes a request holds: its access token's, or the
// local user's (Options.Scopes), where nil means every scope.
func (br *bridge) grant(extra *mcp.RequestExtra) []string {
	if extra != nil && extra.TokenInfo != nil {
		if extra.TokenInfo.Scopes == nil {
			return []string{}
		}
		return extra.TokenInfo.Scopes
	}
	return br.opts.Scopes
}

// missing returns the scopes of tool that granted lacks; granted nil
// holds every scope.
func (s toolScopes) missing(tool string, granted []string) []string {
	return MissingScopes(granted, s[tool])
}

// outOfScopePrompt is the error of a prompts/get of a prompt the caller
// may not use.
func outOfScopePrompt(prompt string, need []string) error {
	return outOfScope("prompt "+prompt, need)
}

// outOfScopeError is the result of a call of a tool the caller may not
// use: as for a tool the agent may not call, the model reads why.
func outOfScopeError(tool string, need []string) *mcp.CallToolResult {
	return errorResult("insufficient scope: tool " + tool + " needs the scopes " + strings.Join(need, " "))
}

// hideOutOfScope hides from the lists of tools, prompts, resources and
// templates those whose scopes the request does not hold.
func (br *bridge) hideOutOfScope(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		gen := br.now()
		granted := br.grant(req.GetExtra())
		if granted == nil || (len(gen.scopes)+len(gen.promptScopes) == 0 && gen.resourceScopes == nil) {
			return res, nil
		}
		switch lr := res.(type) {
		case *mcp.ListToolsResult:
			filtered := *lr
			filtered.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool { return len(gen.scopes.missing(t.Name, granted)) > 0 })
			return &filtered, nil
		case *mcp.ListPromptsResult:
			filtered := *lr
			filtered.Prompts = slices.DeleteFunc(slices.Clone(lr.Prompts), func(p *mcp.Prompt) bool { return len(gen.promptScopes.missing(p.Name, granted)) > 0 })
			return &filtered, nil
		case *mcp.ListResourcesResult:
			filtered := *lr
			filtered.Resources = slices.DeleteFunc(slices.Clone(lr.Resources), func(r *mcp.Resource) bool {
				return len(MissingScopes(granted, gen.resourceScopes.Need(r.URI))) > 0
			})
			return &filtered, nil
		case *mcp.ListResourceTemplatesResult:
			filtered := *lr
			filtered.ResourceTemplates = slices.DeleteFunc(slices.Clone(lr.ResourceTemplates), func(t *mcp.ResourceTemplate) bool {
				return len(MissingScopes(granted, gen.resourceScopes.template(t.URITemplate))) > 0
			})
			return &filtered, nil
		}
		return res, nil
	}
}

// refuseOutOfScope answers a posted tools/call (alone or in a batch) of a
// tool whose scopes the request's token does not hold with 403
// insufficient_scope, and returns the message it refused, or nil. p is
// the request's principal when req's context does not carry it yet.
func (h *HTTPHandler) refuseOutOfScope(w http.ResponseWriter, req *http.Request, p *mcpauth.Principal, m *httpMessage, body []byte) *httpMessage {
	if p == nil {
		p = mcpauth.PrincipalFrom(req.Context())
	}
	if p == nil {
		return nil
	}
	gen := h.bridge.now()
	if len(gen.scopes)+len(gen.promptScopes) == 0 && gen.resourceScopes == nil {
		return nil
	}
	if m.Method != "" {
		if h.refuseMessage(w, gen, p, m, body) {
			refused := *m // a copy: m stays on its caller's stack
			return &refused
		}
		return nil
	}
	// A batch: checkBody found each member a JSON-RPC message.
	var batch []json.RawMessage
	json.Unmarshal(body, &batch)
	for _, raw := range batch {
		var one httpMessage
		if json.Unmarshal(raw, &one) == nil {
			one.params = one.rawParams(raw)
			if h.refuseMessage(w, gen, p, &one, body) {
				return &one
			}
		}
	}
	return nil
}

// refuseMessage answers c, a message of body, with 403 insufficient_scope
// when it needs scopes p lacks, and reports whether it did.
func (h *HTTPHandler) refuseMessage(w http.ResponseWriter, gen *generation, p *mcpauth.Principal, c *httpMessage, body []byte) bool {
	var params struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	raw := c.params
	if raw == nil {
		raw = c.rawParams(body)
	}
	var need []string
	var what string
	switch c.Method {
	case "tools/call":
		json.Unmarshal(raw, &params)
		need, what = gen.scopes[params.Name], "tool "+params.Name
	case "prompts/get":
		json.Unmarshal(raw, &params)
		need, what = gen.promptScopes[params.Name], "prompt "+params.Name
	case "resources/read", "resources/subscribe":
		json.Unmarshal(raw, &params)
		need, what = gen.resourceScopes.Need(params.URI), "resource "+params.URI
	default:
		return false
	}
	if len(p.Missing(need)) > 0 {
		h.opts.Auth.Forbid(w, c.ID, what, need)
		return true
	}
	return false
}

// rawParams returns the params member of the message msg as written.
func (m *httpMessage) rawParams(msg []byte) json.RawMessage {
	var v struct {
		Params json.RawMessage `json:"params"`
	}
	json.Unmarshal(msg, &v)
	return v.Params
}

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
)

// Scopes returns every scope tools and prompts declare, sorted: the
// scopes an authorization server may grant for them.
func Scopes(tools []host.Tool, prompts []host.Prompt) []string {
	var all []string
	for _, t := range tools {
		all = append(all, t.Scopes...)
	}
	for _, p := range prompts {
		all = append(all, p.Scopes...)
	}
	slices.Sort(all)
	return slices.Compact(all)
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
	need := s[tool]
	if granted == nil || len(need) == 0 {
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

// outOfScopePrompt is the error of a prompts/get of a prompt the caller
// may not use.
func outOfScopePrompt(prompt string, need []string) error {
	return &jsonrpc.Error{Code: mcpauth.CodeUnauthorized, Message: "insufficient scope: prompt " + prompt + " needs the scopes " + strings.Join(need, " ")}
}

// outOfScopeError is the result of a call of a tool the caller may not
// use: as for a tool the agent may not call, the model reads why.
func outOfScopeError(tool string, need []string) *mcp.CallToolResult {
	return errorResult("insufficient scope: tool " + tool + " needs the scopes " + strings.Join(need, " "))
}

// hideOutOfScope hides from tools/list and prompts/list the tools and
// prompts whose scopes the request does not hold.
func (br *bridge) hideOutOfScope(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		gen := br.now()
		granted := br.grant(req.GetExtra())
		if granted == nil || len(gen.scopes)+len(gen.promptScopes) == 0 {
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
		}
		return res, nil
	}
}

// refuseOutOfScope answers a posted tools/call (alone or in a batch) of a
// tool whose scopes the request's token does not hold with 403
// insufficient_scope, and returns the message it refused, or nil.
func (h *HTTPHandler) refuseOutOfScope(w http.ResponseWriter, req *http.Request, m *httpMessage, body []byte) *httpMessage {
	p := mcpauth.PrincipalFrom(req.Context())
	if p == nil {
		return nil
	}
	gen := h.bridge.now()
	if len(gen.scopes)+len(gen.promptScopes) == 0 {
		return nil
	}
	calls := []*httpMessage{m}
	if m.Method == "" {
		// A batch: checkBody found each member a JSON-RPC message.
		var batch []json.RawMessage
		json.Unmarshal(body, &batch)
		calls = calls[:0]
		for _, raw := range batch {
			var one httpMessage
			if json.Unmarshal(raw, &one) == nil {
				one.params = one.rawParams(raw)
				calls = append(calls, &one)
			}
		}
	}
	for _, c := range calls {
		needs, what := gen.scopes, "tool "
		switch c.Method {
		case "tools/call":
		case "prompts/get":
			needs, what = gen.promptScopes, "prompt "
		default:
			continue
		}
		var params struct {
			Name string `json:"name"`
		}
		raw := c.params
		if raw == nil {
			raw = c.rawParams(body)
		}
		json.Unmarshal(raw, &params)
		if need := needs[params.Name]; len(p.Missing(need)) > 0 {
			h.opts.Auth.Forbid(w, c.ID, what+params.Name, need)
			return c
		}
	}
	return nil
}

// rawParams returns the params member of the message msg as written.
func (m *httpMessage) rawParams(msg []byte) json.RawMessage {
	var v struct {
		Params json.RawMessage `json:"params"`
	}
	json.Unmarshal(msg, &v)
	return v.Params
}

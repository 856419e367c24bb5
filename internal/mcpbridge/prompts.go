package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// addPrompt serves a slash command as the prompt of the same name.
func (br *bridge) addPrompt(srv *mcp.Server, fb FeatureBackend, p host.Prompt) {
	mp := &mcp.Prompt{Name: p.ID, Title: p.Title, Description: p.Description, Icons: mcpIcons(p.Icons)}
	for _, a := range p.Arguments {
		mp.Arguments = append(mp.Arguments, &mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
	}
	srv.AddPrompt(mp, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		scopes := br.now().promptScopes
		if need := scopes.missing(p.ID, br.grant(req.Extra)); len(need) > 0 {
			return nil, outOfScopePrompt(p.ID, scopes[p.ID])
		}
		// The prompt's questions go as a tool call's, their state bound to
		// the prompt and its arguments.
		bound := promptBinding(p.ID)
		args, _ := json.Marshal(req.Params.Arguments)
		given, loose, err := br.answers(creatorOf(ctx), bound, args, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		asker := newAsker(req)
		asker.loose = loose
		res, err := fb.GetPromptAsking(ctx, &host.PromptRequest{ID: p.ID, Arguments: req.Params.Arguments,
			Session: br.session(req.Session), Agent: br.opts.Agent, Asker: asker, Answers: given})
		var pe *host.PromptError
		switch {
		case errors.Is(err, host.ErrBadArguments):
			return nil, invalidParams("%s", err.Error())
		case errors.As(err, &pe) && asker.later && len(pe.Unasked) > 0:
			return nil, missingCapabilities(pe.Unasked, pe.Message)
		case err != nil:
			return nil, err
		case len(res.Questions) > 0:
			reqs, state, err := br.inputRequests(creatorOf(ctx), bound, args, res.Answered, res.Questions)
			if err != nil {
				return nil, err
			}
			return &mcp.GetPromptResult{InputRequests: reqs, RequestState: state}, nil
		}
		out := &mcp.GetPromptResult{Description: res.Description, Messages: make([]*mcp.PromptMessage, 0, len(res.Messages))}
		for _, m := range res.Messages {
			out.Messages = append(out.Messages, promptMessage(m))
		}
		return out, nil
	})
}

// promptMessage converts a mod's message; the host checked it has one
// kind of content.
func promptMessage(m sdk.PromptMessage) *mcp.PromptMessage {
	role := mcp.Role(m.Role)
	if role == "" {
		role = mcp.Role(sdk.RoleUser)
	}
	out := &mcp.PromptMessage{Role: role}
	switch {
	case m.Image != nil:
		out.Content = &mcp.ImageContent{MIMEType: m.Image.MIMEType, Data: m.Image.Data}
	case m.Resource != nil:
		out.Content = &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
			URI: m.Resource.URI, MIMEType: m.Resource.MIMEType, Text: m.Resource.Text, Blob: m.Resource.Blob,
		}}
	default:
		out.Content = &mcp.TextContent{Text: m.Text}
	}
	return out
}

// invalidParams is a JSON-RPC invalid-params error saying msg.
func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

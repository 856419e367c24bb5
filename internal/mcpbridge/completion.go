package mcpbridge

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// completionHandler answers completion/complete for prompt arguments and
// resource template variables from the mods' Complete handlers.
func (br *bridge) completionHandler(fb FeatureBackend) func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	return func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		p := req.Params
		creq := &host.CompleteRequest{
			CompletionRequest: sdk.CompletionRequest{Argument: p.Argument.Name, Value: p.Argument.Value},
			Session:           br.session(req.Session),
		}
		if p.Context != nil {
			creq.Context = p.Context.Arguments
		}
		switch p.Ref.Type {
		case "ref/prompt":
			creq.Prompt = p.Ref.Name
		case "ref/resource":
			creq.Template = p.Ref.URI
		}
		c, err := fb.Complete(ctx, creq)
		switch {
		case errors.Is(err, host.ErrUnknownCommand), errors.Is(err, host.ErrResourceNotFound), errors.Is(err, host.ErrBadArguments):
			return nil, invalidParams("%s", err.Error())
		case err != nil:
			return nil, err
		}
		return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: c.Values, Total: c.Total, HasMore: c.HasMore}}, nil
	}
}

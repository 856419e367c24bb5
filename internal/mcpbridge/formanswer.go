package mcpbridge

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// formAnswerKey is the context key under which mcpAsker.Ask gives
// holdFormAnswer a place for the content of the answer it asks for.
type formAnswerKey struct{}

// heldAnswer is the content of a form's answer, held back from go-sdk.
type heldAnswer struct {
	content map[string]any
	held    bool
}

// holdFormAnswer is sending middleware: it takes the content out of the
// answer to a form elicitation (a 2025-11-25 session's elicitation/create)
// that mcpAsker.Ask asked, before go-sdk's ServerSession.Elicit checks
// it against the requested schema. go-sdk would refuse an answer that does
// not fit in its own words and end the question; the host judges the
// answer instead, refuses it in the words of a tool's input, and asks
// again.
func holdFormAnswer(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		hold, ok := ctx.Value(formAnswerKey{}).(*heldAnswer)
		if er, isElicit := res.(*mcp.ElicitResult); ok && isElicit && err == nil {
			hold.content, hold.held = er.Content, true
			er.Content = nil
		}
		return res, err
	}
}

// elicit asks p in session ss and returns the answer as the client gave
// it, for the host to judge.
func elicit(ctx context.Context, ss *mcp.ServerSession, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	hold := &heldAnswer{}
	res, err := ss.Elicit(context.WithValue(ctx, formAnswerKey{}, hold), p)
	if err == nil && hold.held {
		res.Content = hold.content
	}
	return res, err
}

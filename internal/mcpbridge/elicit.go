package mcpbridge

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
)

// ApprovalInput is the id of the input request through which a tools/call
// asks the client for a person's approval (MCP elicitation, form mode, with
// no fields: accept runs the call, decline or cancel denies it).
const ApprovalInput = "modkit/approval"

// elicitation asks a person's approval through the MCP client, in two
// rounds of one tools/call (multi round trip, which the SDK runs for
// clients of older protocols too, with an elicitation/create request): the
// first round ends with an input request instead of a result; the client
// asks the person and calls again with the answer and the request state,
// and the second round runs the call when the person accepted what the mod
// still asks.
type elicitation struct {
	params *mcp.CallToolParamsRaw
	// asked is set when the first round must go back to the client.
	asked *host.ApprovalRequest
}

// errAskClient ends a call's first round: the client asks the person.
var errAskClient = errors.New("the MCP client asks the person")

// approver returns the call's approver and its elicitation, or nil and nil
// when the client declared no form elicitation: the host then refuses a
// call that needs approval, saying none could be asked.
func approver(req *mcp.CallToolRequest) (*elicitation, host.Approver) {
	ss := req.Session
	if ss == nil {
		return nil, nil
	}
	if ip := ss.InitializeParams(); ip == nil || ip.Capabilities == nil || !formElicitation(ip.Capabilities.Elicitation) {
		return nil, nil
	}
	e := &elicitation{params: req.Params}
	return e, e.approve
}

// formElicitation reports whether a client with elicitation capabilities c
// answers form elicitations: it declares form, or declares neither mode
// (what clients of protocols before form and url modes send).
func formElicitation(c *mcp.ElicitationCapabilities) bool {
	return c != nil && (c.Form != nil || c.URL == nil)
}

func (e *elicitation) approve(_ context.Context, r *host.ApprovalRequest) (bool, error) {
	if answer, ok := e.params.InputResponses[ApprovalInput].(*mcp.ElicitResult); ok && hmac.Equal([]byte(e.params.RequestState), []byte(requestState(r))) {
		return answer.Action == "accept", nil
	}
	// No answer yet, or one to another question: the input, or what the
	// mod asks, changed since.
	e.asked = r
	return false, errAskClient
}

// result is the first round's result: the question for the client.
func (e *elicitation) result() *mcp.CallToolResult {
	r := e.asked
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{ApprovalInput: &mcp.ElicitParams{
			Mode:            "form",
			Message:         r.Question(),
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
		}},
		RequestState: requestState(r),
	}
}

// stateKey signs request states: a client cannot make an answer given to
// one question pass for another.
var stateKey = func() []byte {
	b := make([]byte, 32)
	rand.Read(b)
	return b
}()

// requestState binds an answer to the question asked: the tool, its input
// and the mod's reason.
func requestState(r *host.ApprovalRequest) string {
	m := hmac.New(sha256.New, stateKey)
	for _, s := range []string{r.Tool, string(r.Input), r.Reason} {
		m.Write([]byte(s))
		m.Write([]byte{0})
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

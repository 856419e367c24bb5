package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// ApprovalInput is the id of the input request through which a tools/call
// asks the client for a person's approval (MCP elicitation, form mode, with
// no fields: accept runs the call, decline denies it, cancel dismisses it).
const ApprovalInput = host.ApprovalKey

// multiRoundTrip is the first protocol revision whose clients answer
// questions by calling again (input_required and requestState) instead of
// answering server→client requests.
const multiRoundTrip = "2026-07-28"

// mcpAsker puts a call's questions to its MCP client: as server→client
// requests (elicitation/create, sampling/createMessage, roots/list) in a
// session of an older revision; as input requests of an input_required
// result (host.ErrAskLater) for a client of 2026-07-28 or later.
type mcpAsker struct {
	ss *mcp.ServerSession
	// can is what the client declared it can be asked.
	can   askable
	later bool
	// loose are input responses the request state did not ask for, by
	// key: a client of 2026-07-28 may answer a question before it is
	// asked.
	loose map[string]mcp.InputResponse
}

// newAsker returns the asker of a request (tools/call, prompts/get): what
// its client declared it can be asked, and how.
func newAsker[P mcp.Params](req *mcp.ServerRequest[P]) *mcpAsker {
	a := &mcpAsker{ss: req.Session, can: askableOf(req)}
	a.later = protocolVersion(req.Params.GetMeta(), req.Session) >= multiRoundTrip
	return a
}

// protocolVersion is the revision of a request: its _meta's, or its
// session's.
func protocolVersion(meta map[string]any, ss *mcp.ServerSession) string {
	if v, ok := meta[mcp.MetaKeyProtocolVersion].(string); ok {
		return v
	}
	if ss != nil {
		if ip := ss.InitializeParams(); ip != nil {
			return ip.ProtocolVersion
		}
	}
	return ""
}

// CanAsk implements host.Asker: what the client declared.
func (a *mcpAsker) CanAsk(kind host.QuestionKind) bool {
	switch kind {
	case host.AskForm:
		return a.can.form
	case host.AskURL:
		return a.can.url
	case host.AskSample:
		return a.can.sample
	case host.AskRoots:
		return a.can.roots
	}
	return false
}

// formElicitation reports whether a client with elicitation capabilities c
// answers form elicitations: it declares form, or declares neither mode
// (what clients of protocols before form and url modes send).
func formElicitation(c *mcp.ElicitationCapabilities) bool {
	return c != nil && (c.Form != nil || c.URL == nil)
}

// Ask implements host.Asker.
func (a *mcpAsker) Ask(ctx context.Context, q *host.Question) (json.RawMessage, error) {
	if a.later {
		if r, ok := a.loose[q.Key]; ok && r != nil && fits(q.Kind, r) == nil {
			delete(a.loose, q.Key) // refused, it is asked again
			return json.Marshal(r)
		}
		return nil, host.ErrAskLater
	}
	if a.ss == nil {
		return nil, fmt.Errorf("%w: the client has no session to be asked in", sdk.ErrCannotAsk)
	}
	ir, err := inputRequest(q)
	if err != nil {
		return nil, err
	}
	var res any
	switch p := ir.(type) {
	case *mcp.ElicitParams:
		res, err = elicit(ctx, a.ss, p)
	case *mcp.CreateMessageParams:
		res, err = a.ss.CreateMessage(ctx, p)
	case *mcp.ListRootsParams:
		res, err = a.ss.ListRoots(ctx, p)
	}
	if err != nil {
		return nil, mcpError(err)
	}
	return json.Marshal(res)
}

// mcpError is what the MCP client said when it failed to answer, without
// the SDK's wrapping.
func mcpError(err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return errors.New(je.Message)
	}
	return err
}

// inputRequest is the MCP request that asks q.
func inputRequest(q *host.Question) (mcp.InputRequest, error) {
	switch q.Kind {
	case host.AskForm, host.AskURL:
		var p mcp.ElicitParams
		if err := json.Unmarshal(q.Params, &p); err != nil {
			return nil, fmt.Errorf("question %s: %w", q.Key, err)
		}
		if q.Kind == host.AskURL {
			p.ElicitationID = q.CallID + "/" + q.Key
		}
		if q.Refusal != "" {
			p.Message = "Your last answer was refused: " + q.Refusal + ".\n\n" + p.Message
		}
		return &p, nil
	case host.AskSample:
		var p mcp.CreateMessageParams
		if err := json.Unmarshal(q.Params, &p); err != nil {
			return nil, fmt.Errorf("question %s: %w", q.Key, err)
		}
		return &p, nil
	case host.AskRoots:
		return &mcp.ListRootsParams{}, nil
	}
	return nil, fmt.Errorf("question %s: unknown kind %q", q.Key, q.Kind)
}

// missingCapabilities is the error of a request that failed because it
// needed questions of the kinds unasked, which the client did not declare
// it can answer (MCP 2026-07-28's MissingRequiredClientCapabilityError,
// HTTP 400): its data names the capabilities the client lacks.
func missingCapabilities(unasked []host.QuestionKind, why string) error {
	// A map, not mcp.ClientCapabilities: that one always marshals roots.
	need := map[string]map[string]any{}
	for _, k := range unasked {
		switch k {
		case host.AskForm, host.AskURL:
			if need["elicitation"] == nil {
				need["elicitation"] = map[string]any{}
			}
			need["elicitation"][string(k)] = struct{}{}
		case host.AskSample:
			need["sampling"] = map[string]any{}
		case host.AskRoots:
			need["roots"] = map[string]any{}
		}
	}
	data, err := json.Marshal(map[string]any{"requiredCapabilities": need})
	if err != nil {
		return err
	}
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: why, Data: data}
}

// inputRequired is the result of a call that ended asking: the questions,
// and the sealed state the client sends back with their answers.
func (br *bridge) inputRequired(owner, tool string, input []byte, res *host.CallResult) (*mcp.CallToolResult, error) {
	reqs, state, err := br.inputRequests(owner, tool, input, res.Answered, res.Questions)
	if err != nil {
		return errorResult("Tool failed: " + err.Error()), nil
	}
	return &mcp.CallToolResult{InputRequests: reqs, RequestState: state}, nil
}

// inputRequests are the input requests of questions, and the sealed state
// of a request (bound to its principal, owner (creatorOf), to tool, or a
// prompt, and to its input) that asks them.
func (br *bridge) inputRequests(owner, tool string, input []byte, answered []host.Answered, questions []host.Question) (mcp.InputRequestMap, string, error) {
	reqs := make(mcp.InputRequestMap, len(questions))
	for i := range questions {
		q := &questions[i]
		ir, err := inputRequest(q)
		if err != nil {
			return nil, "", err
		}
		reqs[q.Key] = ir
	}
	state, err := br.states.seal(owner, tool, input, answered, questions)
	return reqs, state, err
}

// answers are the answers a retried call brings: those its request state
// carries, then its input responses to the questions the state says were
// asked, in order, up to the first question without one (asked again).
// The other input responses are loose: a question with their key takes
// them when the handler asks it (SEP-2322 lets a client answer ahead, and
// without a request state every response is loose). A state that is not
// this server's, has expired or belongs to another call or another
// principal is an error.
func (br *bridge) answers(owner, tool string, input []byte, responses mcp.InputResponseMap, state string) (given []host.Answered, loose map[string]mcp.InputResponse, err error) {
	if len(responses) > 0 {
		loose = make(map[string]mcp.InputResponse, len(responses))
		for k, r := range responses {
			loose[k] = r
		}
	}
	if state == "" {
		return nil, loose, nil
	}
	st, err := br.states.open(owner, tool, input, state)
	if err != nil {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState: " + err.Error()}
	}
	given = st.answered()
	for _, q := range st.Pending {
		resp, ok := responses[q.Key]
		if !ok || resp == nil {
			break
		}
		if err := fits(q.Kind, resp); err != nil {
			return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("inputResponses[%q]: %v", q.Key, err)}
		}
		a, err := json.Marshal(resp)
		if err != nil {
			return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("inputResponses[%q]: %v", q.Key, err)}
		}
		given = append(given, host.Answered{Question: q.question(), Answer: a})
		delete(loose, q.Key)
	}
	// The host takes answers in the order their questions were asked.
	slices.SortStableFunc(given, func(a, b host.Answered) int { return a.Question.Position - b.Question.Position })
	return given, loose, nil
}

// fits says what is wrong when resp is no answer to a question of kind.
func fits(kind host.QuestionKind, resp mcp.InputResponse) error {
	switch resp.(type) {
	case *mcp.ElicitResult:
		if kind == host.AskForm || kind == host.AskURL {
			return nil
		}
	case *mcp.CreateMessageResult, *mcp.CreateMessageWithToolsResult:
		if kind == host.AskSample {
			return nil
		}
	case *mcp.ListRootsResult:
		if kind == host.AskRoots {
			return nil
		}
	}
	what := map[host.QuestionKind]string{host.AskForm: "an elicitation result", host.AskURL: "an elicitation result",
		host.AskSample: "a sampling result", host.AskRoots: "a roots list"}[kind]
	return fmt.Errorf("the question asked for %s", what)
}

// hideApprovalTools is middleware that lists the tools that need approval
// (generation.approving) only to clients that declare form elicitation:
// to any other, every call of theirs that needs approval would be refused.
func (br *bridge) hideApprovalTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok {
			return res, err
		}
		approving := br.now().approving
		if len(approving) == 0 {
			return res, nil
		}
		if r, ok := req.(*mcp.ListToolsRequest); ok {
			if c := r.ClientCapabilities(); c != nil && formElicitation(c.Elicitation) {
				return res, nil
			}
		}
		filtered := *lr
		filtered.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool { return approving[t.Name] })
		return &filtered, nil
	}
}

package host

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

// ClientHandler runs calls of a tool in the embedding application, for a
// tool that runs in the client (manifest.RunsInClient or RunsEither). The
// host calls it on a goroutine of its own, after the input was validated,
// the hooks allowed the call and, when the tool needs approval, the
// person approved, and takes the first answer given to [ClientCall.Reply]
// as the call's one output.
type ClientHandler func(call *ClientCall)

// ClientHandlers maps tool names to the handlers that run them in the
// client.
type ClientHandlers map[string]ClientHandler

// ClientCall is one call a ClientHandler runs.
type ClientCall struct {
	// Tool is the tool called.
	Tool string
	// CallID is the host's id for the call (CallResult.CallID).
	CallID string
	// Label is CallRequest.Label.
	Label string
	// Input is the validated input, a JSON object.
	Input json.RawMessage
	// Session is the calling session.
	Session sdk.Session
	// Agent is the calling agent, if any.
	Agent string

	ctx  context.Context
	gate *modapi.ClientGate
}

// Context is cancelled when the call ends: answered, cancelled or timed
// out. A handler doing long work stops when it is done.
func (c *ClientCall) Context() context.Context { return c.ctx }

// Reply gives the call's output. Exactly one output counts: the first.
// A second reply, and one after the call was cancelled or timed out, is
// dropped and logged. Reply never blocks.
func (c *ClientCall) Reply(a sdk.ClientAnswer) { c.gate.Reply(a) }

// clientTools are the handlers registered with HandleClientTool.
type clientTools struct {
	mu       sync.RWMutex
	handlers ClientHandlers
}

// HandleClientTool registers handle to run every call of the named tool,
// unless the call's own CallRequest.Client has a handler for it; a nil
// handle removes the registration. The tool must run in the client: a
// tool that runs only in its mod cannot be handled.
func (h *Host) HandleClientTool(tool string, handle ClientHandler) error {
	t, ok := h.tools[tool]
	if !ok {
		return h.unknownTool(tool)
	}
	if !t.man.Runs.InClient() {
		return fmt.Errorf("tool %s runs in mod %s; no client can run it", tool, t.mod.man.ID)
	}
	h.clientTools.mu.Lock()
	defer h.clientTools.mu.Unlock()
	if handle == nil {
		delete(h.clientTools.handlers, tool)
		return nil
	}
	if h.clientTools.handlers == nil {
		h.clientTools.handlers = ClientHandlers{}
	}
	h.clientTools.handlers[tool] = handle
	return nil
}

// clientHandler returns the handler that runs a call of t, or nil when the
// mod runs it.
func (h *Host) clientHandler(req *CallRequest, t *tool) ClientHandler {
	if !t.man.Runs.InClient() {
		return nil
	}
	if handle := req.Client[t.man.Name]; handle != nil {
		return handle
	}
	h.clientTools.mu.RLock()
	defer h.clientTools.mu.RUnlock()
	return h.clientTools.handlers[t.man.Name]
}

// runClient hands a validated, allowed call to a client handler and
// waits for its first answer, up to ClientTimeout.
func (h *Host) runClient(ctx context.Context, t *tool, req *CallRequest, res *CallResult, input json.RawMessage, handle ClientHandler) (sdk.ClientAnswer, error) {
	// The call ends when its caller or the host gives up.
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(h.ctx, cancel)()
	log := h.opts.Logger.With("tool", t.man.Name, "call", res.CallID, "label", res.Label)
	gate := modapi.NewClientGate(func(a sdk.ClientAnswer, why string) {
		log.Warn("client answer dropped: "+why, "text", limits.Cut(a.Text, 200), "error", limits.Cut(a.Error, 200))
	})
	call := &ClientCall{Tool: t.man.Name, CallID: res.CallID, Label: res.Label, Input: input,
		Session: req.Session, Agent: req.Agent, ctx: callCtx, gate: gate}
	go func() {
		defer func() {
			if v := recover(); v != nil {
				log.Error("client handler panicked", "panic", v)
				gate.Reply(sdk.ClientAnswer{Error: fmt.Sprintf("the client handler of tool %s panicked: %v", t.man.Name, v)})
			}
		}()
		handle(call)
	}()
	return gate.Wait(callCtx, h.opts.ClientTimeout)
}

// checkResultOf judges a client's typed result against t's result schema.
func (t *tool) checkResultOf(result []byte) ([]string, error) {
	s, err := t.resultSchema()
	if err != nil {
		return nil, err
	}
	return s.Check(result), nil
}

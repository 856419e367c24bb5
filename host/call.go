package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// Status is how a call ended.
type Status string

// The three outcomes of a call.
const (
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
)

// CallRequest asks the host to run one tool.
type CallRequest struct {
	// Tool is the tool's name.
	Tool string
	// Input is the tool input, a JSON object; empty means {}.
	Input json.RawMessage
	// Session is the calling session; Workspace must be absolute.
	Session sdk.Session
	// Agent, when set, must be allowed to call Tool.
	Agent string
	// CallID identifies the call; one is generated when empty.
	CallID string
	// OnActivity, when set, is called for each update the activity rules
	// accept, in order, from one goroutine, before Call returns: the mod
	// streams updates as they happen. When nil, the updates travel with the
	// outcome in one round trip and only CallResult.Activity has them (a
	// crash mid-call then loses them).
	OnActivity func(ActivityEvent)
}

// ActivityEvent is one accepted activity update.
type ActivityEvent struct {
	// Update is the update as the handler sent it.
	Update sdk.ActivityUpdate
	// Seq is the host's sequence number of a log entry, from 1; 0 for
	// title and status.
	Seq int
	// State is the call's activity after the update. Its Log shares
	// storage with later states: read it, do not modify it.
	State sdk.ActivityState
}

// CallResult is the one outcome of a call.
type CallResult struct {
	// Tool and CallID identify the call.
	Tool, CallID string
	// Status is completed, failed or cancelled.
	Status Status
	// Text is what the model reads: the tool's text when completed,
	// "Tool failed: <message>" when failed.
	Text string
	// Result is a rendered tool's typed result, as JSON.
	Result json.RawMessage
	// Outputs are a plain tool's Output followed by its Extra.
	Outputs []sdk.Output
	// Error says why the call failed or was cancelled.
	Error string
	// Activity is the call's final activity.
	Activity sdk.ActivityState
}

// Call runs one tool and returns its one outcome. Invalid input, a hook's
// refusal, a handler's error, a crashed mod and an oversize result are
// failed results, not errors. Call returns an error only when no call
// happened: ErrUnknownTool, ErrNotAllowed or ErrClosed (wrapped; test with
// errors.Is).
func (h *Host) Call(ctx context.Context, req *CallRequest) (*CallResult, error) {
	t, ok := h.tools[req.Tool]
	if !ok {
		return nil, h.unknownTool(req.Tool)
	}
	if req.Agent != "" {
		a, ok := h.agents[req.Agent]
		if !ok {
			return nil, fmt.Errorf("%w: %w", ErrNotAllowed, h.unknownAgent(req.Agent))
		}
		if !a.allowed[req.Tool] {
			return nil, fmt.Errorf("%w: agent %s may not call tool %s", ErrNotAllowed, req.Agent, req.Tool)
		}
	}
	if h.isClosed() {
		return nil, ErrClosed
	}
	res := &CallResult{Tool: req.Tool, CallID: req.CallID}
	if res.CallID == "" {
		res.CallID = newCallID()
	}
	input := req.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	if req.Session.Workspace != "" && !isAbs(req.Session.Workspace) {
		return res.fail(fmt.Sprintf("session workspace %q is not an absolute path", req.Session.Workspace)), nil
	}
	// The input is judged once, before any hook sees it: by the mod's
	// generated validator when it enforces this very schema, else by the
	// host. Without hooks the mod's judgement is part of the call. A
	// schema that does not compile fails the call either way.
	schema, err := t.schema()
	if err != nil {
		return res.fail(err.Error()), nil
	}
	p, res, err := h.start(ctx, t, res)
	if p == nil {
		return res, err
	}
	var problems []string
	switch {
	case !p.validates[t.man.Name]:
		if problems = checkInput(schema, input); len(problems) == 0 {
			input = schema.WithDefaults(input)
		}
	case h.callHooks:
		if problems, err = p.checkInput(ctx, t.man.Name, input); err != nil {
			if _, ok := status.FromError(err); !ok {
				return res.fail(err.Error()), nil
			}
			return res.streamError(ctx, ctx, p, err, h.opts.CallTimeout), nil
		}
	}
	if len(problems) > 0 {
		return res.fail(fmt.Sprintf("invalid input for tool %s:\n  %s", t.man.Name, strings.Join(problems, "\n  "))), nil
	}
	today := h.opts.Today()
	session := protocol.SessionToProto(req.Session)
	if h.callHooks {
		if msg, err := h.runHooks(ctx, &pb.BeforeActionRequest{
			Action: sdk.ActionToolCall, Tool: req.Tool, Input: input, Session: session, Today: today,
		}, nil); err != nil {
			return res.end(ctx, err), nil
		} else if msg != "" {
			return res.fail(msg), nil
		}
	}
	// The call timeout is the host's own: no deadline travels to the mod.
	callCtx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(h.opts.CallTimeout, func() { cancel(errCallTimeout) })
	defer func() {
		timer.Stop()
		cancel(nil)
	}()
	callReq := &pb.CallToolRequest{
		Tool:           req.Tool,
		Input:          input,
		Session:        session,
		CallId:         res.CallID,
		Today:          today,
		GraceMillis:    h.opts.GracePeriod.Milliseconds(),
		MaxResultBytes: int64(h.opts.MaxResultBytes),
	}
	if req.OnActivity == nil {
		// Nobody watches the activity live: one round trip carries it
		// with the outcome.
		resp, err := p.rpc.CallToolOnce(callCtx, callReq)
		if err != nil {
			return res.streamError(ctx, callCtx, p, err, h.opts.CallTimeout), nil
		}
		for _, a := range resp.GetActivity() {
			res.Activity.Apply(protocol.ActivityFromProto(a))
		}
		if resp.GetOutcome() == nil {
			return res.fail(fmt.Sprintf("mod %s ended the call without an outcome", t.mod.man.ID)), nil
		}
		return res.outcome(t, resp.GetOutcome(), h.opts.MaxResultBytes), nil
	}
	stream, err := p.rpc.CallTool(callCtx, callReq)
	if err != nil {
		return res.streamError(ctx, callCtx, p, err, h.opts.CallTimeout), nil
	}
	for {
		ev, err := stream.Recv()
		if err != nil {
			if err == io.EOF {
				return res.fail(fmt.Sprintf("mod %s ended the call without an outcome", t.mod.man.ID)), nil
			}
			return res.streamError(ctx, callCtx, p, err, h.opts.CallTimeout), nil
		}
		if a := ev.GetActivity(); a != nil {
			u := protocol.ActivityFromProto(a)
			if res.Activity.Apply(u) && req.OnActivity != nil {
				e := ActivityEvent{Update: u, State: res.Activity}
				if u.Kind == sdk.ActivityLog {
					e.Seq = len(res.Activity.Log)
				}
				req.OnActivity(e)
			}
			continue
		}
		if o := ev.GetOutcome(); o != nil {
			// The trailer follows at once; reading it ends the stream
			// cleanly, so the deferred cancel resets nothing.
			stream.Recv()
			return res.outcome(t, o, h.opts.MaxResultBytes), nil
		}
	}
}

// start returns the tool's mod process, starting it when needed. When it
// cannot, it returns the call's outcome, or ErrClosed.
func (h *Host) start(ctx context.Context, t *tool, res *CallResult) (*proc, *CallResult, error) {
	if ctx.Err() != nil {
		return nil, res.cancelled(), nil
	}
	p, err := t.mod.getCtx(ctx)
	switch {
	case err == nil:
		return p, res, nil
	case errors.Is(err, ErrClosed):
		return nil, nil, err
	case ctx.Err() != nil:
		return nil, res.cancelled(), nil
	}
	return nil, res.fail(err.Error()), nil
}

func (r *CallResult) fail(msg string) *CallResult {
	r.Activity.End()
	r.Status = StatusFailed
	r.Error = msg
	r.Text = "Tool failed: " + msg
	return r
}

func (r *CallResult) cancelled() *CallResult {
	r.Activity.End()
	r.Status = StatusCancelled
	r.Error = "call cancelled"
	r.Text = ""
	return r
}

// end turns an error that stopped the call into its outcome.
func (r *CallResult) end(ctx context.Context, err error) *CallResult {
	if ctx.Err() != nil {
		return r.cancelled()
	}
	return r.fail(err.Error())
}

func (r *CallResult) streamError(ctx, callCtx context.Context, p *proc, err error, timeout time.Duration) *CallResult {
	switch {
	case ctx.Err() != nil || status.Code(err) == codes.DeadlineExceeded:
		// Only the caller's deadline travels to the mod, whose timer may
		// fire before ours: either way the caller gave up.
		p.reapAfterGrace(r.CallID)
		return r.cancelled()
	case context.Cause(callCtx) == errCallTimeout:
		p.reapAfterGrace(r.CallID)
		return r.fail(fmt.Sprintf("tool %s timed out after %s", r.Tool, timeout))
	}
	if s, ok := status.FromError(err); ok && s.Code() == codes.ResourceExhausted {
		return r.fail(fmt.Sprintf("tool %s returned a result over the host's size limit: %s", r.Tool, s.Message()))
	}
	return r.fail(p.transportError(err))
}

func (r *CallResult) outcome(t *tool, o *pb.Outcome, maxBytes int) *CallResult {
	if o.GetStatus() != pb.Status_STATUS_COMPLETED {
		msg := o.GetError()
		if len(o.GetProblems()) > 0 {
			msg = fmt.Sprintf("invalid input for tool %s:\n  %s", t.man.Name, strings.Join(o.GetProblems(), "\n  "))
		} else if msg == "" {
			msg = "tool " + t.man.Name + " failed without a message"
		}
		return r.fail(msg)
	}
	size := len(o.GetText()) + len(o.GetResult())
	for _, out := range o.GetOutputs() {
		size += len(out.GetContent()) + len(out.GetMimeType()) + len(out.GetUri())
	}
	if size > maxBytes {
		return r.fail(fmt.Sprintf("tool %s returned %d bytes, over the %d-byte result limit; it should return a compact result", t.man.Name, size, maxBytes))
	}
	r.Activity.End()
	r.Status = StatusCompleted
	r.Text = o.GetText()
	if len(o.GetResult()) > 0 {
		r.Result = json.RawMessage(o.GetResult())
	}
	r.Outputs = protocol.OutputsFromProto(o.GetOutputs())
	return r
}

var errCallTimeout = errors.New("call timed out")

func newCallID() string {
	var b [12]byte
	rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}

func isAbs(path string) bool { return filepath.IsAbs(path) }

package protocol

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/deadlines"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
)

// A call's steps before its handler runs (hooks, the input check, the
// approval rule) travel on the lane as the tool call does, when the mod
// serves them there (LaneOptions.Steps): a step frame carrying a LaneStep,
// answered by a step result frame or a failure frame, cancelled by a
// cancel frame. Otherwise they go over gRPC.

var _ modapi.ApprovalRule = (*LaneClient)(nil)

// Steps reports whether a call's steps go over the lane.
func (c *LaneClient) Steps() bool { return c.opts.Steps }

// StepsApart reports how many steps went over the lane in frames of their
// own, not ahead of their call.
func (c *LaneClient) StepsApart() int64 { return c.apart.Load() }

// BeforeAction implements modapi.Mod: over the lane when the mod serves
// steps there, else over gRPC.
func (c *LaneClient) BeforeAction(ctx context.Context, req *modapi.ActionRequest) (*modapi.ActionResponse, error) {
	if !c.opts.Steps {
		return c.GRPCClient.BeforeAction(ctx, req)
	}
	res, err := c.step(ctx, &pb.LaneStep{Request: &pb.LaneStep_BeforeAction{BeforeAction: actionToProto(req)}})
	if err != nil {
		return nil, err
	}
	r := res.GetBeforeAction()
	if r == nil {
		return nil, c.violated(fmt.Errorf("a step result frame answers a hook with %s", stepResultKind(res)))
	}
	return &modapi.ActionResponse{Refusal: r.GetRefusal()}, nil
}

// CheckInput implements modapi.Mod: over the lane when the mod serves
// steps there, else over gRPC.
func (c *LaneClient) CheckInput(ctx context.Context, req *modapi.CheckRequest) (*modapi.CheckResponse, error) {
	if !c.opts.Steps {
		return c.GRPCClient.CheckInput(ctx, req)
	}
	res, err := c.step(ctx, &pb.LaneStep{Request: &pb.LaneStep_CheckInput{CheckInput: &pb.CheckInputRequest{Tool: req.Tool, Input: req.Input}}})
	if err != nil {
		return nil, err
	}
	r := res.GetCheckInput()
	if r == nil {
		return nil, c.violated(fmt.Errorf("a step result frame answers an input check with %s", stepResultKind(res)))
	}
	return &modapi.CheckResponse{Problems: r.GetProblems(), Error: r.GetError()}, nil
}

// NeedsApproval implements modapi.ApprovalRule: over the lane when the mod
// serves steps there, else over gRPC.
func (c *LaneClient) NeedsApproval(ctx context.Context, req *modapi.ApprovalRequest) (*modapi.ApprovalResponse, error) {
	if !c.opts.Steps {
		return c.GRPCClient.NeedsApproval(ctx, req)
	}
	res, err := c.step(ctx, &pb.LaneStep{Request: &pb.LaneStep_NeedsApproval{NeedsApproval: approvalToProto(req)}})
	if err != nil {
		return nil, err
	}
	r := res.GetNeedsApproval()
	if r == nil {
		return nil, c.violated(fmt.Errorf("a step result frame answers an approval rule with %s", stepResultKind(res)))
	}
	return approvalFromProto(r), nil
}

// stepResultKind names what a step result carries, for a violation.
func stepResultKind(res *pb.LaneStepResult) string {
	switch {
	case res.GetBeforeAction() != nil:
		return "a hook's verdict"
	case res.GetCheckInput() != nil:
		return "an input check"
	case res.GetNeedsApproval() != nil:
		return "an approval rule's answer"
	}
	return "nothing"
}

// step runs one step in the mod: a step frame, then the mod's step result
// or failure. A cancelled ctx sends a cancel frame and returns at once.
func (c *LaneClient) step(ctx context.Context, st *pb.LaneStep) (*pb.LaneStepResult, error) {
	c.apart.Add(1)
	if c.opts.Trace != nil {
		st.Traceparent, st.Tracestate, st.Baggage, _ = c.opts.Trace(ctx)
	}
	id, lc, err := c.open(ctx, kindStep, st)
	if err != nil {
		return nil, err
	}
	res, err := c.awaitStep(ctx, id, lc)
	c.release(lc)
	return res, err
}

// awaitStep waits for the end of step id.
func (c *LaneClient) awaitStep(ctx context.Context, id uint64, lc *laneCall) (*pb.LaneStepResult, error) {
	frames := lc.taken[:0]
	for {
		frames = lc.take(frames)
		if len(frames) > 0 {
			// The reader queues one frame for a step: its end.
			return c.stepEnd(frames[0])
		}
		if err := c.wait(ctx, id, lc); err != nil {
			return nil, err
		}
	}
}

// stepEnd is a step's result, from its one frame.
func (c *LaneClient) stepEnd(f laneFrame) (*pb.LaneStepResult, error) {
	if f.err != nil {
		return nil, &modapi.TransportError{Kind: modapi.TransportResponseTooLarge, Msg: "the mod's " + f.err.Error(), Err: f.err}
	}
	switch f.kind {
	case kindStepEnd:
		var res pb.LaneStepResult
		if err := proto.Unmarshal(f.payload, &res); err != nil {
			return nil, c.violated(fmt.Errorf("a step result frame does not decode: %w", err))
		}
		if spans := res.GetSpans(); len(spans) > 0 && c.opts.Spans != nil {
			c.opts.Spans(unsafe.String(unsafe.SliceData(spans), len(spans)))
		}
		return &res, nil
	case kindFailure:
		return nil, c.failure(f.payload)
	}
	return nil, c.violated(fmt.Errorf("a frame (%s) for a step, which ends with a step result", f.kind))
}

// runStep runs step id, whose frame's payload is payload, and sends its
// result: nothing when it was cancelled, since the host has moved on.
func (s *LaneServer) runStep(ctx context.Context, id uint64, payload []byte) {
	defer s.ended(id)
	var st pb.LaneStep
	if err := proto.Unmarshal(payload, &st); err != nil {
		s.failCall(id, pb.LaneFailureKind_LANE_FAILURE_KIND_UNSPECIFIED, "the mod cannot decode the step frame: "+err.Error())
		return
	}
	if tp := st.GetTraceparent(); tp != "" && s.Trace != nil {
		ctx = s.Trace(ctx, tp, st.GetTracestate(), st.GetBaggage())
	}
	res, err := s.step(ctx, &st)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		s.failCall(id, pb.LaneFailureKind_LANE_FAILURE_KIND_UNSPECIFIED, err.Error())
		return
	}
	spans := s.takeSpans(&res.Spans)
	err = s.w.send(id, kindStepEnd, res)
	putSpans(spans)
	if err != nil {
		if _, big := err.(*payloadTooLargeError); big {
			s.failCall(id, pb.LaneFailureKind_LANE_FAILURE_KIND_RESPONSE_TOO_LARGE, "the mod's step result is "+err.Error())
		}
	}
}

// step runs the step st asks for in Impl, tracked as its gRPC method's
// handler is.
func (s *LaneServer) step(ctx context.Context, st *pb.LaneStep) (*pb.LaneStepResult, error) {
	begin := func(method string, req any) (end func()) {
		if s.Begin == nil {
			return func() {}
		}
		return s.Begin(ctx, method, req)
	}
	switch r := st.GetRequest().(type) {
	case *pb.LaneStep_BeforeAction:
		defer begin(pb.Mod_BeforeAction_FullMethodName, r.BeforeAction)()
		resp, err := s.Impl.BeforeAction(ctx, actionFromProto(r.BeforeAction))
		if err != nil {
			return nil, err
		}
		return &pb.LaneStepResult{Response: &pb.LaneStepResult_BeforeAction{BeforeAction: &pb.BeforeActionResponse{Refusal: resp.Refusal}}}, nil
	case *pb.LaneStep_CheckInput:
		defer begin(pb.Mod_CheckInput_FullMethodName, r.CheckInput)()
		resp, err := s.Impl.CheckInput(ctx, &modapi.CheckRequest{Tool: r.CheckInput.GetTool(), Input: r.CheckInput.GetInput()})
		if err != nil {
			return nil, err
		}
		return &pb.LaneStepResult{Response: &pb.LaneStepResult_CheckInput{CheckInput: &pb.CheckInputResponse{Problems: resp.Problems, Error: resp.Error}}}, nil
	case *pb.LaneStep_NeedsApproval:
		rule, ok := s.Impl.(modapi.ApprovalRule)
		if !ok {
			return nil, fmt.Errorf("%s", errNoApprovalRule)
		}
		req := r.NeedsApproval
		defer begin(pb.Mod_NeedsApproval_FullMethodName, req)()
		resp, err := rule.NeedsApproval(ctx, approvalRequestFromProto(req))
		if err != nil {
			return nil, err
		}
		return &pb.LaneStepResult{Response: &pb.LaneStepResult_NeedsApproval{NeedsApproval: &pb.NeedsApprovalResponse{
			Reason: resp.Reason, Error: resp.Error, Problems: resp.Problems}}}, nil
	}
	return nil, fmt.Errorf("the mod cannot run the step the host asked for (%T)", st.GetRequest())
}

// Steps ahead of a call: when the only hooks on a tool call are in the
// tool's own mod, the host sends its input check and its hooks in the call
// frame (modapi.Ahead), and the mod runs them before the handler; a step
// that stops the call is told in the outcome frame (LaneStopped). One
// round trip instead of three.

// errNoAhead is CallTool's error for steps ahead of a call to a mod that
// does not take them.
var errNoAhead = errors.New("the mod does not take a call's steps with the call")

// hookDeadlines are the hook timeouts of the steps ahead of calls, on
// every lane of the process.
var hookDeadlines deadlines.Queue

// laneAhead is what the steps ahead of a call allocate, at once: their
// requests to Impl, and the hook's timeout.
type laneAhead struct {
	check    modapi.CheckRequest
	hook     modapi.ActionRequest
	timeout  deadlines.Entry
	answered atomic.Bool // by the hook, or its timeout
}

// ahead runs the steps that travel with call id before its handler and
// returns how they stopped it (nil: they passed), or done when the call
// needs no more: it was cancelled, or the hooks' timeout answered it.
// decoded is the input as the check decoded it (CheckResponse.Decoded),
// for the handler.
func (s *LaneServer) ahead(ctx context.Context, id uint64, call *pb.LaneCall) (decoded any, stop *pb.LaneStopped, done bool) {
	a := new(laneAhead)
	if call.GetCheck() {
		req := call.GetRequest()
		a.check = modapi.CheckRequest{Tool: req.GetTool(), Input: req.GetInput()}
		resp, err := s.Impl.CheckInput(ctx, &a.check)
		switch {
		case ctx.Err() != nil:
			return nil, nil, true
		case err != nil:
			return nil, &pb.LaneStopped{CheckFailure: err.Error()}, false
		case resp.Error != "":
			return nil, &pb.LaneStopped{CheckError: resp.Error}, false
		case len(resp.Problems) > 0:
			return nil, &pb.LaneStopped{Problems: resp.Problems}, false
		}
		decoded = resp.Decoded
	}
	h := call.GetHook()
	if h == nil {
		return decoded, nil, false
	}
	// As the host's timeout cuts a hook it asked apart: the hook sees its
	// context cancelled, and the call is answered at once, the hook still
	// running (tracked, and ended with the process past its grace period).
	// The hook runs under the call's context, which the timeout cancels:
	// the handler never runs after a hook that timed out.
	if ms := call.GetHookTimeoutMillis(); ms > 0 {
		a.timeout.Fire = func() {
			if a.answered.CompareAndSwap(false, true) {
				s.cancel(id)
				s.sendStopped(id, &pb.LaneStopped{HookTimedOut: true})
			}
		}
		hookDeadlines.Add(&a.timeout, millis(ms))
		defer hookDeadlines.Remove(&a.timeout)
	}
	// The hook runs under the call's context, which only the lane
	// cancels: Track, told by the lane, notes it as it does the handler,
	// with no watch on the context.
	var tracked LaneTracked
	end := func() {}
	switch {
	case s.Track != nil:
		tracked = s.track(id, pb.Mod_BeforeAction_FullMethodName, h)
	case s.Begin != nil:
		end = s.Begin(ctx, pb.Mod_BeforeAction_FullMethodName, h)
	}
	fillAction(&a.hook, h)
	resp, err := s.Impl.BeforeAction(ctx, &a.hook)
	if tracked != nil {
		tracked.End()
	}
	end()
	switch {
	case !a.answered.CompareAndSwap(false, true) || ctx.Err() != nil:
		return nil, nil, true
	case err != nil:
		return nil, &pb.LaneStopped{HookFailure: err.Error()}, false
	case resp.Refusal != "":
		return nil, &pb.LaneStopped{Refusal: resp.Refusal}, false
	}
	return decoded, nil, false
}

// sendStopped ends call id, which stop stopped before its handler ran.
func (s *LaneServer) sendStopped(id uint64, stop *pb.LaneStopped) {
	out := &pb.LaneOutcome{Stopped: stop}
	spans := s.takeSpans(&out.Spans)
	_ = s.w.send(id, kindOutcome, out)
	putSpans(spans)
}

func stoppedFromProto(st *pb.LaneStopped) *modapi.Stopped {
	return &modapi.Stopped{
		Problems: st.GetProblems(), CheckError: st.GetCheckError(), CheckFailure: st.GetCheckFailure(),
		Refusal: st.GetRefusal(), HookFailure: st.GetHookFailure(), HookTimedOut: st.GetHookTimedOut(),
	}
}

package protocol

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// GRPCClient is a mod in another process, as the host calls it: it
// implements [modapi.Mod] over the Mod service.
type GRPCClient struct {
	// PB is the generated client underneath.
	PB pb.ModClient
	// Features is the generated client of the ModFeatures service, on the
	// same connection.
	Features pb.ModFeaturesClient
	// MaxSendBytes is the largest request the connection sends, which
	// tells a request over the limit from a response over it; 0 when
	// unknown.
	MaxSendBytes int
}

// wire turns a gRPC failure of the request sent into a
// *modapi.TransportError.
func (c *GRPCClient) wire(err error, sent proto.Message) error {
	return fromWire(err, sent, c.MaxSendBytes)
}

var _ modapi.Mod = (*GRPCClient)(nil)

// Describe implements modapi.Mod.
func (c *GRPCClient) Describe(ctx context.Context, _ *modapi.DescribeRequest) (*modapi.DescribeResponse, error) {
	resp, err := c.PB.Describe(ctx, &pb.DescribeRequest{})
	if err != nil {
		return nil, c.wire(err, nil)
	}
	return &modapi.DescribeResponse{Manifest: resp.GetManifest(), ValidatedTools: resp.GetValidatedTools(), Confined: resp.GetConfined(),
		CallLane: resp.GetCallLane(), LaneSteps: resp.GetLaneSteps()}, nil
}

// Activate implements modapi.Mod.
func (c *GRPCClient) Activate(ctx context.Context, req *modapi.ActivateRequest) (*modapi.ActivateResponse, error) {
	resp, err := c.PB.Activate(ctx, &pb.ActivateRequest{Today: req.Today})
	if err != nil {
		return nil, c.wire(err, nil)
	}
	return &modapi.ActivateResponse{Error: resp.GetError()}, nil
}

// CallTool implements modapi.Mod: a stream of activity events when the
// request watches activity live, one round trip otherwise.
func (c *GRPCClient) CallTool(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	if req.Ahead != nil {
		return nil, errNoAhead
	}
	preq := callToProto(req)
	if !req.Live() {
		resp, err := c.PB.CallToolOnce(ctx, preq)
		if err != nil {
			return nil, c.wire(err, preq)
		}
		if resp.GetOutcome() == nil {
			return nil, modapi.ErrNoOutcome
		}
		out := &modapi.CallResponse{Outcome: OutcomeFromProto(resp.GetOutcome())}
		if acts := resp.GetActivity(); len(acts) > 0 {
			out.Activity = make([]sdk.ActivityUpdate, len(acts))
			for i, a := range acts {
				out.Activity[i] = ActivityFromProto(a)
			}
		}
		return out, nil
	}
	stream, err := c.PB.CallTool(ctx, preq)
	if err != nil {
		return nil, c.wire(err, preq)
	}
	for {
		ev, err := stream.Recv()
		if err == io.EOF {
			return nil, modapi.ErrNoOutcome
		}
		if err != nil {
			return nil, c.wire(err, preq)
		}
		if a := ev.GetActivity(); a != nil {
			req.Deliver(ActivityFromProto(a))
			continue
		}
		if b := ev.GetActivities(); b != nil {
			for _, a := range b.GetUpdates() {
				req.Deliver(ActivityFromProto(a))
			}
			continue
		}
		if o := ev.GetOutcome(); o != nil {
			// The trailer follows at once; reading it ends the stream
			// cleanly, so cancelling ctx afterwards resets nothing.
			stream.Recv()
			return &modapi.CallResponse{Outcome: OutcomeFromProto(o)}, nil
		}
	}
}

// callToProto is the wire form of a tool call's request, on gRPC or the
// call lane.
func callToProto(req *modapi.CallRequest) *pb.CallToolRequest {
	m := &callProto{}
	m.fill(req)
	return &m.req
}

// callProto is a tool call's request in its wire form, with its session:
// one allocation, or part of one.
type callProto struct {
	req  pb.CallToolRequest
	sess pb.Session
}

func (m *callProto) fill(req *modapi.CallRequest) {
	m.sess.Id, m.sess.Workspace = req.Session.ID, req.Session.Workspace
	m.req = pb.CallToolRequest{
		Tool:           req.Tool,
		Input:          req.Input,
		Session:        &m.sess,
		Caller:         callerToProto(req.Caller),
		CallId:         req.CallID,
		Label:          req.Label,
		Today:          req.Today,
		GraceMillis:    req.Grace.Milliseconds(),
		MaxResultBytes: int64(req.MaxResultBytes),
		Answers:        answersToProto(req.Answers),
		CanAsk:         kindsToProto(req.CanAsk),
	}
}

// RenderView implements modapi.Mod.
func (c *GRPCClient) RenderView(ctx context.Context, req *modapi.ViewRequest) (*modapi.ViewResponse, error) {
	s := req.State
	preq := &pb.RenderViewRequest{
		Tool: req.Tool, Phase: string(s.Phase), Input: s.Input, Result: s.Result, Error: s.Error,
		CallId: req.CallID, GraceMillis: req.Grace.Milliseconds(),
	}
	resp, err := c.PB.RenderView(ctx, preq)
	if err != nil {
		return nil, c.wire(err, preq)
	}
	return &modapi.ViewResponse{HTML: resp.GetHtml(), HasView: resp.GetHasView(), Error: resp.GetError()}, nil
}

// RunCommand implements modapi.Mod.
func (c *GRPCClient) RunCommand(ctx context.Context, req *modapi.CommandRequest) (*modapi.CommandResponse, error) {
	preq := &pb.RunCommandRequest{
		Id: req.ID, Slash: req.Slash, Args: req.Args, Text: req.Text,
		Session: SessionToProto(req.Session), Today: req.Today, MaxMessageBytes: int64(req.MaxMessageBytes),
		CallId: req.CallID, GraceMillis: req.Grace.Milliseconds(),
	}
	resp, err := c.PB.RunCommand(ctx, preq)
	if err != nil {
		return nil, c.wire(err, preq)
	}
	return &modapi.CommandResponse{Message: resp.GetMessage(), Error: resp.GetError()}, nil
}

// CheckInput implements modapi.Mod.
func (c *GRPCClient) CheckInput(ctx context.Context, req *modapi.CheckRequest) (*modapi.CheckResponse, error) {
	preq := &pb.CheckInputRequest{Tool: req.Tool, Input: req.Input}
	resp, err := c.PB.CheckInput(ctx, preq)
	if err != nil {
		return nil, c.wire(err, preq)
	}
	return &modapi.CheckResponse{Problems: resp.GetProblems(), Error: resp.GetError()}, nil
}

// BeforeAction implements modapi.Mod.
func (c *GRPCClient) BeforeAction(ctx context.Context, req *modapi.ActionRequest) (*modapi.ActionResponse, error) {
	preq := actionToProto(req)
	resp, err := c.PB.BeforeAction(ctx, preq)
	if err != nil {
		return nil, c.wire(err, preq)
	}
	return &modapi.ActionResponse{Refusal: resp.GetRefusal()}, nil
}

// CallRunning implements modapi.Mod.
func (c *GRPCClient) CallRunning(ctx context.Context, req *modapi.CallRunningRequest) (*modapi.CallRunningResponse, error) {
	resp, err := c.PB.CallRunning(ctx, &pb.CallRunningRequest{CallId: req.CallID})
	if err != nil {
		return nil, c.wire(err, nil)
	}
	return &modapi.CallRunningResponse{Running: resp.GetRunning()}, nil
}

// GRPCServer serves a [modapi.Mod], in a mod process, as the Mod service.
type GRPCServer struct {
	pb.UnimplementedModServer
	Impl modapi.Mod
}

// Describe implements pb.ModServer.
func (s *GRPCServer) Describe(ctx context.Context, _ *pb.DescribeRequest) (*pb.DescribeResponse, error) {
	resp, err := s.Impl.Describe(ctx, &modapi.DescribeRequest{})
	if err != nil {
		return nil, err
	}
	return &pb.DescribeResponse{Manifest: resp.Manifest, ValidatedTools: resp.ValidatedTools, Confined: resp.Confined,
		CallLane: resp.CallLane, LaneSteps: resp.LaneSteps}, nil
}

// Activate implements pb.ModServer.
func (s *GRPCServer) Activate(ctx context.Context, req *pb.ActivateRequest) (*pb.ActivateResponse, error) {
	resp, err := s.Impl.Activate(ctx, &modapi.ActivateRequest{Today: req.GetToday()})
	if err != nil {
		return nil, err
	}
	return &pb.ActivateResponse{Error: resp.Error}, nil
}

func callFromProto(req *pb.CallToolRequest) *modapi.CallRequest {
	r := new(modapi.CallRequest)
	fillCall(r, req)
	return r
}

// fillCall sets r to req's call, as callFromProto converts it.
func fillCall(r *modapi.CallRequest, req *pb.CallToolRequest) {
	*r = modapi.CallRequest{
		Tool:           req.GetTool(),
		Input:          json.RawMessage(req.GetInput()),
		Session:        SessionFromProto(req.GetSession()),
		Caller:         callerFromProto(req.GetCaller()),
		CallID:         req.GetCallId(),
		Label:          req.GetLabel(),
		Today:          req.GetToday(),
		Grace:          millis(req.GetGraceMillis()),
		MaxResultBytes: int(req.GetMaxResultBytes()),
		Answers:        answersFromProto(req.GetAnswers()),
		CanAsk:         kindsFromProto(req.GetCanAsk()),
	}
}

// CallTool implements pb.ModServer: each activity update is sent as it
// happens (together with those that came while the previous message was
// on its way; see activitySender), then the outcome. A cancelled call sends nothing more: the host
// has moved on.
func (s *GRPCServer) CallTool(req *pb.CallToolRequest, stream pb.Mod_CallToolServer) error {
	ctx := stream.Context()
	r := callFromProto(req)
	out := &activitySender{send: stream.Send}
	r.OnActivity = out.add
	resp, err := s.Impl.CallTool(ctx, r)
	out.flush()
	if err != nil {
		return err
	}
	if resp.Outcome.Status == modapi.StatusCancelled {
		return ctx.Err()
	}
	return stream.Send(&pb.CallToolEvent{Event: &pb.CallToolEvent_Outcome{Outcome: OutcomeToProto(&resp.Outcome)}})
}

// CallToolOnce implements pb.ModServer.
func (s *GRPCServer) CallToolOnce(ctx context.Context, req *pb.CallToolRequest) (*pb.CallToolResponse, error) {
	resp, err := s.Impl.CallTool(ctx, callFromProto(req))
	if err != nil {
		return nil, err
	}
	if resp.Outcome.Status == modapi.StatusCancelled {
		return nil, ctx.Err()
	}
	out := &pb.CallToolResponse{Outcome: OutcomeToProto(&resp.Outcome)}
	if len(resp.Activity) > 0 {
		out.Activity = make([]*pb.Activity, len(resp.Activity))
		for i, u := range resp.Activity {
			out.Activity[i] = ActivityToProto(u)
		}
	}
	return out, nil
}

// RenderView implements pb.ModServer.
func (s *GRPCServer) RenderView(ctx context.Context, req *pb.RenderViewRequest) (*pb.RenderViewResponse, error) {
	resp, err := s.Impl.RenderView(ctx, &modapi.ViewRequest{Tool: req.GetTool(), State: sdk.RawViewState{
		Phase: sdk.Phase(req.GetPhase()), Input: req.GetInput(), Result: req.GetResult(), Error: req.GetError(),
	}})
	if err != nil {
		return nil, err
	}
	return &pb.RenderViewResponse{Html: resp.HTML, HasView: resp.HasView, Error: resp.Error}, nil
}

// RunCommand implements pb.ModServer.
func (s *GRPCServer) RunCommand(ctx context.Context, req *pb.RunCommandRequest) (*pb.RunCommandResponse, error) {
	resp, err := s.Impl.RunCommand(ctx, &modapi.CommandRequest{
		ID: req.GetId(), Slash: req.GetSlash(), Args: req.GetArgs(), Text: req.GetText(),
		Session: SessionFromProto(req.GetSession()), Today: req.GetToday(), MaxMessageBytes: int(req.GetMaxMessageBytes()),
	})
	if err != nil {
		return nil, err
	}
	return &pb.RunCommandResponse{Message: resp.Message, Error: resp.Error}, nil
}

// CheckInput implements pb.ModServer.
func (s *GRPCServer) CheckInput(ctx context.Context, req *pb.CheckInputRequest) (*pb.CheckInputResponse, error) {
	resp, err := s.Impl.CheckInput(ctx, &modapi.CheckRequest{Tool: req.GetTool(), Input: req.GetInput()})
	if err != nil {
		return nil, err
	}
	return &pb.CheckInputResponse{Problems: resp.Problems, Error: resp.Error}, nil
}

// BeforeAction implements pb.ModServer.
func (s *GRPCServer) BeforeAction(ctx context.Context, req *pb.BeforeActionRequest) (*pb.BeforeActionResponse, error) {
	resp, err := s.Impl.BeforeAction(ctx, actionFromProto(req))
	if err != nil {
		return nil, err
	}
	return &pb.BeforeActionResponse{Refusal: resp.Refusal}, nil
}

// actionToProto and actionFromProto convert a hook's request for the wire,
// on gRPC or the call lane. The mod tracks the hook's run by the request's
// call id and grace period, which are not its code's to see.
func actionToProto(req *modapi.ActionRequest) *pb.BeforeActionRequest {
	m := new(actionProto)
	m.fill(req)
	return &m.req
}

// actionProto is a hook's request in its wire form, with its session: one
// allocation, or part of one.
type actionProto struct {
	req  pb.BeforeActionRequest
	sess pb.Session
}

func (m *actionProto) fill(req *modapi.ActionRequest) {
	a := req.Action
	m.sess.Id, m.sess.Workspace = req.Session.ID, req.Session.Workspace
	m.req = pb.BeforeActionRequest{
		Action: a.Name, Tool: a.Tool, Command: a.Command, Input: a.Input,
		Session: &m.sess, Today: req.Today,
		CallId: req.CallID, GraceMillis: req.Grace.Milliseconds(),
	}
}

func actionFromProto(req *pb.BeforeActionRequest) *modapi.ActionRequest {
	r := new(modapi.ActionRequest)
	fillAction(r, req)
	return r
}

// fillAction sets r, a zero request, to req, as actionFromProto converts it.
func fillAction(r *modapi.ActionRequest, req *pb.BeforeActionRequest) {
	r.Action = sdk.Action{Name: req.GetAction(), Tool: req.GetTool(), Command: req.GetCommand(), Input: req.GetInput()}
	r.Session, r.Today = SessionFromProto(req.GetSession()), req.GetToday()
}

// CallRunning implements pb.ModServer.
func (s *GRPCServer) CallRunning(ctx context.Context, req *pb.CallRunningRequest) (*pb.CallRunningResponse, error) {
	resp, err := s.Impl.CallRunning(ctx, &modapi.CallRunningRequest{CallID: req.GetCallId()})
	if err != nil {
		return nil, err
	}
	return &pb.CallRunningResponse{Running: resp.Running}, nil
}

// OutcomeToProto converts an outcome for the wire. A cancelled outcome has
// no wire form; it converts as failed.
func OutcomeToProto(o *modapi.Outcome) *pb.Outcome {
	out := new(pb.Outcome)
	fillOutcome(out, o)
	return out
}

// fillOutcome sets out, a zero message, to o, as OutcomeToProto converts
// it.
func fillOutcome(out *pb.Outcome, o *modapi.Outcome) {
	switch o.Status {
	case modapi.StatusAsking:
		out.Status = pb.Status_STATUS_ASKING
		out.Questions = questionsToProto(o.Questions)
	case modapi.StatusCompleted:
		out.Status = pb.Status_STATUS_COMPLETED
		out.Error, out.Problems, out.Unasked = o.Error, o.Problems, kindsToProto(o.Unasked)
		out.Text = o.Text
		out.Result = o.Result
		out.Outputs = outputsToProto(o.Outputs)
		out.ClientActions = actionsToProto(o.Actions)
	default:
		out.Status = pb.Status_STATUS_FAILED
		out.Error, out.Problems, out.Unasked = o.Error, o.Problems, kindsToProto(o.Unasked)
	}
}

// OutcomeFromProto converts a wire outcome; any status but completed is
// failed.
func OutcomeFromProto(o *pb.Outcome) modapi.Outcome {
	if o.GetStatus() == pb.Status_STATUS_ASKING && len(o.GetQuestions()) > 0 {
		return modapi.Outcome{Status: modapi.StatusAsking, Questions: questionsFromProto(o.GetQuestions())}
	}
	if o.GetStatus() != pb.Status_STATUS_COMPLETED {
		return modapi.Outcome{Status: modapi.StatusFailed, Error: o.GetError(), Problems: o.GetProblems(), Unasked: kindsFromProto(o.GetUnasked())}
	}
	out := modapi.Outcome{Status: modapi.StatusCompleted, Text: o.GetText(), Outputs: OutputsFromProto(o.GetOutputs()), Actions: actionsFromProto(o.GetClientActions())}
	if len(o.GetResult()) > 0 {
		out.Result = json.RawMessage(o.GetResult())
	}
	return out
}

func millis(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

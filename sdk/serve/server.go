package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// server implements the Mod service for one generated mod.
type server struct {
	pb.UnimplementedModServer
	g   *sdk.Generated
	id  string
	log *slog.Logger

	activateOnce sync.Once
	activateErr  error

	handlers *handlers // the running handlers, by call id
}

func newServer(g *sdk.Generated, log *slog.Logger, hs *handlers) *server {
	id := g.Mod.Metadata.ID
	if id == "" {
		id = "mod"
	}
	return &server{g: g, id: id, log: log, handlers: hs}
}

func (s *server) CallRunning(_ context.Context, req *pb.CallRunningRequest) (*pb.CallRunningResponse, error) {
	return &pb.CallRunningResponse{Running: s.handlers.isRunning(req.GetCallId())}, nil
}

func (s *server) Describe(context.Context, *pb.DescribeRequest) (*pb.DescribeResponse, error) {
	validated := make([]string, 0, len(s.g.Inputs))
	for name := range s.g.Inputs {
		validated = append(validated, name)
	}
	slices.Sort(validated)
	return &pb.DescribeResponse{Manifest: s.g.Manifest, ValidatedTools: validated}, nil
}

func (s *server) Activate(ctx context.Context, req *pb.ActivateRequest) (*pb.ActivateResponse, error) {
	s.activateOnce.Do(func() {
		if s.g.Mod.Activate == nil {
			return
		}
		env := &sdk.Env{Today: req.GetToday(), Logger: s.log}
		s.activateErr = recovered("activate", func() error { return s.g.Mod.Activate(ctx, env) })
	})
	if s.activateErr != nil {
		return &pb.ActivateResponse{Error: s.activateErr.Error()}, nil
	}
	return &pb.ActivateResponse{}, nil
}

// recovered runs f, turning a panic into an error that names what panicked.
func recovered(what string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s panicked: %v", what, r)
		}
	}()
	return f()
}

// streamSink sends activity updates as they happen. ToolContext serializes
// calls and drops updates after the call ended.
type streamSink struct {
	stream pb.Mod_CallToolServer
}

func (s streamSink) Activity(u sdk.ActivityUpdate) {
	// A failed send means the call is gone; the handler sees its context
	// cancelled.
	_ = s.stream.Send(&pb.CallToolEvent{Event: &pb.CallToolEvent_Activity{Activity: protocol.ActivityToProto(u)}})
}

func failedOutcome(msg string) *pb.Outcome {
	return &pb.Outcome{Status: pb.Status_STATUS_FAILED, Error: msg}
}

func inputOutcome(ie *sdk.InputError) *pb.Outcome {
	return &pb.Outcome{Status: pb.Status_STATUS_FAILED, Error: ie.Error(), Problems: limits.Problems(ie.Problems, ie.More)}
}

func (s *server) CallTool(req *pb.CallToolRequest, stream pb.Mod_CallToolServer) error {
	out := s.call(stream.Context(), req, streamSink{stream})
	if out == nil {
		return stream.Context().Err() // the host has moved on
	}
	return stream.Send(&pb.CallToolEvent{Event: &pb.CallToolEvent_Outcome{Outcome: out}})
}

// bufferSink keeps a call's activity for the one response of CallToolOnce.
// ToolContext serializes calls to Activity.
type bufferSink struct {
	activity []*pb.Activity
}

func (b *bufferSink) Activity(u sdk.ActivityUpdate) {
	b.activity = append(b.activity, protocol.ActivityToProto(u))
}

func (s *server) CallToolOnce(ctx context.Context, req *pb.CallToolRequest) (*pb.CallToolResponse, error) {
	var sink bufferSink
	out := s.call(ctx, req, &sink)
	if out == nil {
		return nil, ctx.Err()
	}
	return &pb.CallToolResponse{Activity: sink.activity, Outcome: out}, nil
}

// call runs one tool call, sending its activity to sink, and returns its
// outcome, or nil when ctx ended first.
func (s *server) call(ctx context.Context, req *pb.CallToolRequest, sink sdk.ActivitySink) *pb.Outcome {
	name := req.GetTool()
	t, ok := s.g.Tool(name)
	if !ok {
		return failedOutcome(fmt.Sprintf("mod %s has no tool %s", s.id, name))
	}
	var input any
	err := recovered("input decoder of "+name, func() error {
		var err error
		input, err = s.g.Decode(t, req.GetInput())
		return err
	})
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		var ie *sdk.InputError
		if errors.As(err, &ie) {
			return inputOutcome(ie)
		}
		return failedOutcome(err.Error())
	}
	log := s.log.With("tool", name, "call", req.GetCallId())
	if label := req.GetLabel(); label != "" {
		log = log.With("label", label)
	}
	tc := sdk.NewToolContext(ctx, sdk.CallInfo{
		Session: protocol.SessionFromProto(req.GetSession()),
		CallID:  req.GetCallId(),
		Today:   req.GetToday(),
		Logger:  log,
	}, sink)
	var res *sdk.Result
	err = s.invoke(name, func() error {
		var err error
		res, err = t.Invoke(tc, input)
		return err
	})
	tc.End()
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		var ie *sdk.InputError
		if errors.As(err, &ie) { // from the input type's Validate
			return inputOutcome(ie)
		}
		return failedOutcome(err.Error())
	}
	if res == nil {
		return failedOutcome(fmt.Sprintf("tool %s returned no result", name))
	}
	out := &pb.Outcome{
		Status:  pb.Status_STATUS_COMPLETED,
		Text:    res.Text,
		Result:  res.Data,
		Outputs: protocol.OutputsToProto(res),
	}
	if max := req.GetMaxResultBytes(); max > 0 {
		size := len(out.Text) + len(out.Result)
		for _, o := range out.Outputs {
			size += len(o.Content) + len(o.MimeType) + len(o.Uri)
		}
		if int64(size) > max {
			return failedOutcome(fmt.Sprintf("tool %s returned %d bytes, over the %d-byte result limit; it should return a compact result", name, size, max))
		}
	}
	return out
}

// invoke runs a handler, turning a panic into an error and logging its stack.
func (s *server) invoke(name string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("tool panicked", "tool", name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("tool %s panicked: %v", name, r)
		}
	}()
	return f()
}

func (s *server) RenderView(_ context.Context, req *pb.RenderViewRequest) (*pb.RenderViewResponse, error) {
	t, ok := s.g.Tool(req.GetTool())
	if !ok {
		return &pb.RenderViewResponse{Error: fmt.Sprintf("mod %s has no tool %s", s.id, req.GetTool())}, nil
	}
	var html string
	var has bool
	err := recovered("view of "+req.GetTool(), func() error {
		var err error
		html, has, err = t.RenderView(sdk.RawViewState{
			Phase: sdk.Phase(req.GetPhase()), Input: req.GetInput(), Result: req.GetResult(), Error: req.GetError(),
		})
		return err
	})
	if err != nil {
		return &pb.RenderViewResponse{HasView: true, Error: err.Error()}, nil
	}
	return &pb.RenderViewResponse{Html: html, HasView: has}, nil
}

func (s *server) RunCommand(ctx context.Context, req *pb.RunCommandRequest) (*pb.RunCommandResponse, error) {
	env := &sdk.Env{Session: protocol.SessionFromProto(req.GetSession()), Today: req.GetToday(), Logger: s.log}
	var msg string
	var err error
	if req.GetSlash() {
		c, ok := s.slash(req.GetId())
		if !ok {
			return &pb.RunCommandResponse{Error: fmt.Sprintf("mod %s has no slash command %s", s.id, req.GetId())}, nil
		}
		err = recovered("slash command /"+c.ID, func() error {
			if c.Run == nil {
				return fmt.Errorf("slash command /%s has no Run function", c.ID)
			}
			var err error
			msg, err = c.Run(ctx, env, req.GetText())
			return err
		})
	} else {
		c, ok := s.command(req.GetId())
		if !ok {
			return &pb.RunCommandResponse{Error: fmt.Sprintf("mod %s has no command %s", s.id, req.GetId())}, nil
		}
		err = recovered("command "+c.ID, func() error {
			if c.Run == nil {
				return fmt.Errorf("command %s has no Run function", c.ID)
			}
			var err error
			msg, err = c.Run(ctx, env, req.GetArgs())
			return err
		})
	}
	if err != nil {
		return &pb.RunCommandResponse{Error: err.Error()}, nil
	}
	return &pb.RunCommandResponse{Message: msg}, nil
}

func (s *server) command(id string) (sdk.Command, bool) {
	for _, c := range s.g.Mod.Commands {
		if c.ID == id {
			return c, true
		}
	}
	return sdk.Command{}, false
}

func (s *server) slash(id string) (sdk.SlashCommand, bool) {
	for _, c := range s.g.Mod.SlashCommands {
		if c.ID == id {
			return c, true
		}
	}
	return sdk.SlashCommand{}, false
}

func (s *server) BeforeAction(ctx context.Context, req *pb.BeforeActionRequest) (*pb.BeforeActionResponse, error) {
	env := &sdk.Env{Session: protocol.SessionFromProto(req.GetSession()), Today: req.GetToday(), Logger: s.log}
	action := sdk.Action{Name: req.GetAction(), Tool: req.GetTool(), Command: req.GetCommand(), Input: req.GetInput()}
	for _, hk := range s.g.Mod.Hooks {
		if hk.BeforeAction != action.Name || hk.Run == nil {
			continue
		}
		if err := recovered("hook before "+hk.BeforeAction, func() error { return hk.Run(ctx, env, action) }); err != nil {
			return &pb.BeforeActionResponse{Refusal: err.Error()}, nil
		}
	}
	return &pb.BeforeActionResponse{}, nil
}

package modserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/sdkrt"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// Server runs one generated mod's handlers. It is safe for concurrent use.
type Server struct {
	g     *sdk.Generated
	id    string
	log   *slog.Logger
	tools map[string]*tool

	activateOnce sync.Once
	activateErr  error

	mu      sync.Mutex
	running map[string]int // call id -> handlers running

	// watch are the host's watchers of resource updates; notify is
	// watch.notify, made once rather than for every call.
	watch  watchers
	notify func(uri string)
}

var _ modapi.Mod = (*Server)(nil)

// tool is one of the mod's tools, and the name of its handler's span.
type tool struct {
	sdkrt.Tool
	span string
}

// New returns a server for g, logging to log (nil discards).
func New(g *sdk.Generated, log *slog.Logger) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{g: g, id: modID(g), log: log, tools: map[string]*tool{}, running: map[string]int{}}
	s.notify = s.watch.notify
	for _, t := range g.Mod.AI.Tools {
		if rt, ok := sdkrt.ToolOf(t); ok {
			if _, dup := s.tools[rt.Name()]; !dup {
				s.tools[rt.Name()] = &tool{Tool: rt, span: "run_tool " + rt.Name()}
			}
		}
	}
	return s
}

// modID is g's mod id, "mod" when it has none.
func modID(g *sdk.Generated) string {
	if id := g.Mod.Metadata.ID; id != "" {
		return id
	}
	return "mod"
}

// ToolNames are the names of g's tools, in order.
func ToolNames(g *sdk.Generated) []string {
	var names []string
	for _, t := range g.Mod.AI.Tools {
		if rt, ok := sdkrt.ToolOf(t); ok {
			names = append(names, rt.Name())
		}
	}
	return names
}

func (s *Server) track(callID string, delta int) {
	s.mu.Lock()
	if n := s.running[callID] + delta; n > 0 {
		s.running[callID] = n
	} else {
		delete(s.running, callID)
	}
	s.mu.Unlock()
}

// CallRunning implements modapi.Mod.
func (s *Server) CallRunning(_ context.Context, req *modapi.CallRunningRequest) (*modapi.CallRunningResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &modapi.CallRunningResponse{Running: s.running[req.CallID] > 0}, nil
}

// Describe implements modapi.Mod.
func (s *Server) Describe(context.Context, *modapi.DescribeRequest) (*modapi.DescribeResponse, error) {
	validated := make([]string, 0, len(s.g.Inputs))
	for name := range s.g.Inputs {
		validated = append(validated, name)
	}
	slices.Sort(validated)
	return &modapi.DescribeResponse{Manifest: s.g.Manifest, ValidatedTools: validated}, nil
}

// Activate implements modapi.Mod: the mod's Activate runs once.
func (s *Server) Activate(ctx context.Context, req *modapi.ActivateRequest) (*modapi.ActivateResponse, error) {
	s.activateOnce.Do(func() {
		if s.g.Mod.Activate == nil {
			return
		}
		env := s.env(sdk.Session{}, req.Today)
		s.activateErr = s.recovered("activate", "", func() error { return s.g.Mod.Activate(ctx, env) })
	})
	if s.activateErr != nil {
		return &modapi.ActivateResponse{Error: s.activateErr.Error()}, nil
	}
	return &modapi.ActivateResponse{}, nil
}

// recovered runs f, turning a panic into an error that names what panicked,
// what+name, and logging the panic's stack.
func (s *Server) recovered(what, name string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			what += name
			s.log.Error(what+" panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("%s panicked: %v", what, r)
		}
	}()
	return f()
}

func failed(err error) modapi.Outcome {
	var ie *sdk.InputError
	if errors.As(err, &ie) {
		return modapi.Outcome{Status: modapi.StatusFailed, Error: ie.Error(), Problems: words.Problems(ie.Problems, ie.More), Cause: err}
	}
	return modapi.Outcome{Status: modapi.StatusFailed, Error: err.Error(), Cause: err}
}

// Decode validates and decodes input for the named tool, as CallTool does
// before running it: with the generated decoder, or encoding/json when
// there is none, then the input type's Validate method. Problems are an
// *sdk.InputError.
func (s *Server) Decode(tool string, input []byte) (any, error) {
	t, ok := s.tools[tool]
	if !ok {
		return nil, fmt.Errorf("mod %s has no tool %s", s.id, tool)
	}
	decoded, err := s.decode(t.Tool, input)
	if err != nil {
		return nil, err
	}
	err = s.recovered("input validator of ", tool, func() error { return t.Validate(decoded) })
	return decoded, err
}

func (s *Server) decode(t sdkrt.Tool, input []byte) (decoded any, err error) {
	name := t.Name()
	err = s.recovered("input decoder of ", name, func() error {
		var err error
		if dec, ok := s.g.Inputs[name]; ok {
			decoded, err = dec(input)
		} else {
			decoded, err = t.Decode(input)
		}
		return err
	})
	return decoded, err
}

// CheckInput implements modapi.Mod: it decodes the input as CallTool would,
// so that hooks see only input the tool accepts.
func (s *Server) CheckInput(_ context.Context, req *modapi.CheckRequest) (*modapi.CheckResponse, error) {
	decoded, err := s.Decode(req.Tool, req.Input)
	if err == nil {
		return &modapi.CheckResponse{Decoded: decoded}, nil
	}
	// Declared here, not above: errors.As moves ie to the heap, which
	// input that passes need not pay for.
	var ie *sdk.InputError
	if errors.As(err, &ie) {
		return &modapi.CheckResponse{Problems: words.Problems(ie.Problems, ie.More)}, nil
	}
	return &modapi.CheckResponse{Error: err.Error()}, nil
}

// CallTool implements modapi.Mod. A call whose ctx ends while the handler
// runs is Cancelled, with the handler's error as Cause. The input is
// decoded unless req.Decoded, from this server's CheckInput, holds it.
func (s *Server) CallTool(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	// The response, the call's questions and what the handler's
	// ToolContext asks of the call, in one allocation.
	st := &toolCall{s: s, req: req, ask: asking{answers: req.Answers, can: req.CanAsk}}
	resp := &st.resp
	t, ok := s.tools[req.Tool]
	if !ok {
		resp.Outcome = modapi.Outcome{Status: modapi.StatusFailed, Error: fmt.Sprintf("mod %s has no tool %s", s.id, req.Tool)}
		return resp, nil
	}
	ctx, span := traceCall(ctx, t.span, req)
	defer func() { endTraceCall(span, &resp.Outcome) }()
	st.ctx = ctx
	// The call runs from here, decoding included: CallRunning says so, and
	// a call cancelled while its input is decoded never reaches its handler.
	s.track(req.CallID, 1)
	defer s.track(req.CallID, -1)
	input, err := req.Decoded, error(nil)
	if input == nil {
		input, err = s.decode(t.Tool, req.Input)
	}
	if ctx.Err() != nil {
		resp.Outcome = modapi.Outcome{Status: modapi.StatusCancelled}
		return resp, nil
	}
	if err != nil {
		resp.Outcome = failed(err)
		return resp, nil
	}
	call := sdkrt.Call{
		SessionID:       req.Session.ID,
		Workspace:       req.Session.Workspace,
		CallID:          req.CallID,
		Today:           req.Today,
		Caller:          req.Caller,
		Logger:          st,
		Activity:        st,
		ResourceUpdated: s.notify,
	}
	ask := &st.ask
	call.Ask = ask
	var res *sdkrt.Result
	err = s.recovered("tool ", req.Tool, func() error {
		var err error
		res, err = t.Run(ctx, call, input)
		return err
	})
	pending := ask.questions()
	switch {
	case ctx.Err() != nil:
		resp.Outcome = modapi.Outcome{Status: modapi.StatusCancelled, Cause: err}
	case pending != nil:
		// Whatever the run returned: it cannot go on without the answers.
		resp.Outcome = modapi.Outcome{Status: modapi.StatusAsking, Questions: pending}
	case err != nil:
		resp.Outcome = ask.failed(err)
		if op, model, ok := denial(err, s.id, &s.g.Mod.Permissions, req.Session.Workspace); ok {
			s.log.Warn(op, "tool", req.Tool, "call", req.CallID, "error", err.Error())
			resp.Outcome.Error = model
		}
	case res == nil:
		resp.Outcome = modapi.Outcome{Status: modapi.StatusFailed, Error: fmt.Sprintf("tool %s returned no result", req.Tool)}
	default:
		actions, bad := s.actions(t, res.Actions)
		if bad != "" {
			resp.Outcome = modapi.Outcome{Status: modapi.StatusFailed, Error: bad}
			break
		}
		resp.Outcome = modapi.Outcome{Status: modapi.StatusCompleted, Text: res.Text, Result: res.Data, Outputs: outputs(res.Outputs), Actions: actions}
		modapi.CapResult(req.Tool, &resp.Outcome, req.MaxResultBytes)
	}
	return resp, nil
}

// toolCall is a tool call CallTool runs: its response, its questions,
// and the logger and activity its handler's ToolContext asks for.
type toolCall struct {
	resp modapi.CallResponse
	ask  asking
	s    *Server
	req  *modapi.CallRequest
	ctx  context.Context
}

// Logger implements sdkrt.LoggerMaker.
func (c *toolCall) Logger() *slog.Logger {
	log := c.s.log.With("tool", c.req.Tool, "call", c.req.CallID)
	if c.req.Label != "" {
		log = log.With("label", c.req.Label)
	}
	return withTrace(c.ctx, log)
}

// Activity implements sdkrt.ActivitySink: updates go to the request's
// Watcher or OnActivity, or with the response.
func (c *toolCall) Activity(kind, text string) {
	u := sdk.ActivityUpdate{Kind: sdk.ActivityKind(kind), Text: text}
	if c.req.Live() {
		c.req.Deliver(u)
		return
	}
	c.resp.Activity = append(c.resp.Activity, u)
}

func outputs(os []sdkrt.Output) []sdk.Output {
	if len(os) == 0 {
		return nil
	}
	out := make([]sdk.Output, len(os))
	for i, o := range os {
		out[i] = sdk.Output(o)
	}
	return out
}

// RenderView implements modapi.Mod.
func (s *Server) RenderView(_ context.Context, req *modapi.ViewRequest) (*modapi.ViewResponse, error) {
	t, ok := s.tools[req.Tool]
	if !ok {
		return &modapi.ViewResponse{Error: fmt.Sprintf("mod %s has no tool %s", s.id, req.Tool)}, nil
	}
	var html string
	var has bool
	err := s.recovered("view of ", req.Tool, func() error {
		var err error
		html, has, err = t.RenderView(&sdkrt.ViewState{
			Phase: string(req.State.Phase), Input: req.State.Input, Result: req.State.Result, Error: req.State.Error,
		})
		return err
	})
	if err != nil {
		return &modapi.ViewResponse{HasView: true, Error: err.Error()}, nil
	}
	return &modapi.ViewResponse{HTML: html, HasView: has}, nil
}

// RunCommand implements modapi.Mod.
func (s *Server) RunCommand(ctx context.Context, req *modapi.CommandRequest) (*modapi.CommandResponse, error) {
	env := s.env(req.Session, req.Today)
	var what string
	var run func() (string, error)
	if req.Slash {
		c, ok := s.slash(req.ID)
		if !ok {
			return &modapi.CommandResponse{Error: fmt.Sprintf("mod %s has no slash command %s", s.id, req.ID)}, nil
		}
		what = "slash command /" + c.ID
		if c.Run != nil || c.Prompt != nil {
			run = func() (string, error) { return s.slashRun(ctx, env, c, req.Text) }
		}
	} else {
		c, ok := s.command(req.ID)
		if !ok {
			return &modapi.CommandResponse{Error: fmt.Sprintf("mod %s has no command %s", s.id, req.ID)}, nil
		}
		what = "command " + c.ID
		if c.Run != nil {
			run = func() (string, error) { return c.Run(ctx, env, req.Args) }
		}
	}
	if run == nil {
		return &modapi.CommandResponse{Error: what + " has no handler in the mod"}, nil
	}
	var msg string
	err := s.recovered(what, "", func() error {
		var err error
		msg, err = run()
		return err
	})
	if err != nil {
		if op, text, ok := denial(err, s.id, &s.g.Mod.Permissions, req.Session.Workspace); ok {
			s.log.Warn(op, "command", what, "error", err.Error())
			return &modapi.CommandResponse{Error: text}, nil
		}
		return &modapi.CommandResponse{Error: err.Error()}, nil
	}
	if e := modapi.CapMessage(what, msg, req.MaxMessageBytes); e != "" {
		return &modapi.CommandResponse{Error: e}, nil
	}
	return &modapi.CommandResponse{Message: msg}, nil
}

func (s *Server) command(id string) (sdk.Command, bool) {
	for _, c := range s.g.Mod.Commands {
		if c.ID == id {
			return c, true
		}
	}
	return sdk.Command{}, false
}

func (s *Server) slash(id string) (sdk.SlashCommand, bool) {
	for _, c := range s.g.Mod.SlashCommands {
		if c.ID == id {
			return c, true
		}
	}
	return sdk.SlashCommand{}, false
}

// BeforeAction implements modapi.Mod: the hooks on req.Action.Name run in
// order, and the first error refuses the action.
func (s *Server) BeforeAction(ctx context.Context, req *modapi.ActionRequest) (*modapi.ActionResponse, error) {
	env := s.env(req.Session, req.Today)
	ctx, traced := traceHooks(ctx, string(req.Action.Name))
	resp := &modapi.ActionResponse{}
	defer func() { traced(resp.Refusal) }()
	for _, hk := range s.g.Mod.Hooks {
		if hk.BeforeAction != req.Action.Name || hk.Run == nil {
			continue
		}
		if err := s.recovered("hook before ", hk.BeforeAction, func() error { return hk.Run(ctx, env, req.Action) }); err != nil {
			resp.Refusal = err.Error()
			return resp, nil
		}
	}
	return resp, nil
}

package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/audit"
	"github.com/modkit/modkit/internal/coalesce"
	"github.com/modkit/modkit/internal/taskstore"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// Backend is what the bridge needs from a host. *host.Host implements it.
// A Backend that also has a Mods method, as *host.Host does, gives the
// server its instructions: what each mod serving a tool is for.
type Backend interface {
	// Tools returns the tools the agent may call; "" means every tool.
	Tools(agent string) ([]host.Tool, error)
	// Call runs one tool and returns its one outcome.
	Call(ctx context.Context, req *host.CallRequest) (*host.CallResult, error)
	// RenderView renders a tool's custom view for one phase.
	RenderView(ctx context.Context, tool string, state sdk.RawViewState) (string, error)
}

var _ Backend = (*host.Host)(nil)

// Options configure the bridge. A nil *Options means all defaults.
type Options struct {
	// Agent, when set, limits the served tools to the agent's allowlist, and
	// the host enforces it on every call.
	Agent string
	// Workspace is the absolute directory handed to tools as the session's
	// workspace. Default: none.
	Workspace string
	// SessionID names the session tools see. Default: the MCP session's id
	// (streamable HTTP), or "mcp" when the transport has none (stdio).
	SessionID string
	// Name and Version identify the server to clients. Default "modhost"
	// and "devel".
	Name, Version string
	// Icons stand for the server in a client's interface (serverInfo's
	// icons). Default: none.
	Icons []manifest.Icon
	// Logger receives the bridge's own logs. Default: discard.
	Logger *slog.Logger
	// StateKey seals the request states of calls that ask their client
	// questions (MCP 2026-07-28): StateKeySize random bytes, the same for
	// every replica that serves one URL. Default: a fresh key per server,
	// so a state opens only on the server that sealed it.
	StateKey []byte
	// StateTTL is how long a request state stays valid. Default
	// DefaultStateTTL.
	StateTTL time.Duration
	// TaskStore keeps the tasks of calls of tools that support tasks,
	// shared by the replicas that serve one URL. Default: a store in
	// this process's memory.
	TaskStore taskstore.Store
	// TaskTTL is how long a task and its result are kept from its
	// creation. Default DefaultTaskTTL.
	TaskTTL time.Duration
	// TaskLease is how long a task stays "working" after its replica
	// last said it runs it: a replica that dies leaves its tasks failed
	// after this long. Default DefaultTaskLease.
	TaskLease time.Duration
	// TaskMaxLive caps the live tasks (working, or waiting for answers)
	// of one principal (of the server's callers together without
	// authorization) created on this replica: a call that would make
	// one more gets a JSON-RPC error naming the cap. Default
	// DefaultTaskMaxLive.
	TaskMaxLive int
	// TaskMaxBytes caps the bytes the tasks of one principal created on
	// this replica keep (inputs, results, errors, questions): the oldest
	// ended tasks are evicted to make room, and a call whose task does
	// not fit beside the live ones gets a JSON-RPC error naming the cap.
	// Default DefaultTaskMaxBytes.
	TaskMaxBytes int64
	// Scopes are the OAuth scopes of a caller with no access token: the
	// local user of stdio, or of an HTTP handler without
	// HTTPOptions.Auth. Tools that need a scope outside them are hidden
	// and refused. Default (nil): every scope; an empty, non-nil slice
	// holds none.
	Scopes []string
	// Audit, when set, receives a record of every request that reaches a
	// tool, prompt, resource or task, and of every one the HTTP handler
	// refuses. Its calls are served through the SDK: the direct paths,
	// which SDK middleware does not see, are off. Default: none.
	Audit *audit.Log
}

// LogLevel is the MCP logging level of the notifications that carry a
// tool's log entries.
const LogLevel mcp.LoggingLevel = "info"

// Server is one MCP server of a Backend's tools: the SDK's server, the
// bridge from MCP to the host, the direct path and the tasks. It owns all
// its state: a Server dropped is collected with everything it made.
// Serve it with [Server.ServeStdio], [Server.NewHTTPHandler] or
// [Server.Connect].
type Server struct {
	// mcp is the SDK's server, which serves every request the bridge's
	// own paths leave to it.
	mcp    *mcp.Server
	bridge *bridge
	// direct is what the direct paths serve without the SDK's session
	// (direct.go, stdiodirect.go); nil with Options.Audit.
	direct *directCalls
	// tasks runs the calls that become tasks (tasks.go).
	tasks *taskRunner
	// reloading serializes Reload (reload.go).
	reloading sync.Mutex
}

// Connect serves one session of the server over t, as
// [mcp.Server.Connect] does: the SDK alone, without the direct path.
func (s *Server) Connect(ctx context.Context, t mcp.Transport, opts *mcp.ServerSessionOptions) (*mcp.ServerSession, error) {
	return s.mcp.Connect(ctx, t, opts)
}

// NewServer returns an MCP server that serves the tools the agent may call.
// It fails when the agent is unknown or a tool's schema is not one MCP can
// carry.
func NewServer(b Backend, opts *Options) (*Server, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = "modhost"
	}
	if o.Version == "" {
		o.Version = "devel"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	l, err := listsOf(b, o.Agent)
	if err != nil {
		return nil, err
	}
	tools := l.tools
	gen, err := newGeneration(l)
	if err != nil {
		return nil, err
	}
	st, err := newStates(o.StateKey, o.StateTTL)
	if err != nil {
		return nil, fmt.Errorf("mcp: %w", err)
	}
	br := &bridge{backend: b, opts: o, states: st, local: host.LocalCaller(o.Scopes)}
	tasks := newTaskRunner(br, &o)
	fb, _ := b.(FeatureBackend)
	sopts := &mcp.ServerOptions{
		Logger:       o.Logger,
		Instructions: instructions(b, tools),
		// Tools are advertised even when the agent may call none, and so
		// are prompts: the SDK answers prompts/list, and server/discover
		// must declare what the server answers.
		Capabilities: &mcp.ServerCapabilities{
			Logging: &mcp.LoggingCapabilities{},
			// The lists change when a mod is reloaded (Reload).
			Tools:   &mcp.ToolCapabilities{ListChanged: true},
			Prompts: &mcp.PromptCapabilities{ListChanged: true},
			// Tasks are served on streamable HTTP to clients of 2026-07-28.
			Extensions: map[string]any{TasksExtension: map[string]any{}},
		},
	}
	br.featureOptions(fb, sopts)
	impl := &mcp.Implementation{Name: o.Name, Version: o.Version, Icons: mcpIcons(o.Icons)}
	srv := mcp.NewServer(impl, sopts)
	srv.AddSendingMiddleware(holdFormAnswer)
	if o.Audit != nil {
		srv.AddReceivingMiddleware(observe, br.auditRequests, noteLogLevel)
	} else {
		srv.AddReceivingMiddleware(observe, noteLogLevel)
	}
	br.addFeatures(srv, fb)
	s := &Server{mcp: srv, bridge: br, tasks: tasks}
	if o.Audit == nil {
		s.direct = &directCalls{handlers: map[string]mcp.ToolHandler{}, impl: impl}
	}
	br.register(srv, s.direct, &lists{}, l, gen)
	srv.AddReceivingMiddleware(hideRenderTool, br.hideOutOfScope, br.hideApprovalTools)
	// The outermost: they change the results' types.
	srv.AddReceivingMiddleware(tasks.listTaskSupport, tasks.coreTasksMiddleware)
	return s, nil
}

// instructions tells a client what the mods serving tools are for: each
// one's display name and description, in the order loaded.
func instructions(b Backend, tools []host.Tool) string {
	mb, ok := b.(interface{ Mods() []*manifest.Manifest })
	if !ok {
		return ""
	}
	serving := map[string][]string{}
	for _, t := range tools {
		serving[t.Mod] = append(serving[t.Mod], t.Name)
	}
	var sb strings.Builder
	for _, m := range mb.Mods() {
		names := serving[m.ID]
		if len(names) == 0 || m.Description == "" {
			continue
		}
		if sb.Len() == 0 {
			sb.WriteString("The tools come from these mods:\n")
		}
		name := m.DisplayName
		if name == "" {
			name = m.ID
		}
		fmt.Fprintf(&sb, "- %s: %s Tools: %s.\n", name, strings.TrimSpace(m.Description), strings.Join(names, ", "))
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

type bridge struct {
	backend Backend
	opts    Options
	// gen is what the server serves from the mods beside the SDK's
	// lists: the views, scopes, approval and task support (reload.go).
	gen atomic.Pointer[generation]
	// states seals and opens request states.
	states *states
	// local is the caller of a request with no access token: the local
	// user holding Options.Scopes.
	local *sdk.Caller
}

// viewTool is a tool with a custom view.
type viewTool struct {
	host.Tool
	// wrapped tells whether its structured content wraps the result as
	// {"result": ...}.
	wrapped bool
}

// session returns the sdk.Session a call runs in.
func (br *bridge) session(ss *mcp.ServerSession) sdk.Session {
	id := br.opts.SessionID
	if id == "" && ss != nil {
		id = ss.ID()
	}
	if id == "" {
		id = "mcp"
	}
	return sdk.Session{ID: id, Workspace: br.opts.Workspace}
}

// callHandler returns the tools/call handler of one tool.
func (br *bridge) callHandler(t host.Tool, wrapped bool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		scopes := br.now().scopes
		if need := scopes.missing(t.Name, br.grant(req.Extra)); len(need) > 0 {
			if note := audit.NoteFrom(ctx); note != nil {
				note.Outcome = audit.Refused
			}
			return outOfScopeError(t.Name, scopes[t.Name]), nil
		}
		input := req.Params.Arguments
		if string(input) == "null" {
			input = nil
		}
		given, loose, err := br.answers(creatorOf(ctx), t.Name, input, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		ctx, cancel := callContext(ctx)
		defer cancel()
		progress := br.progress(ctx, req, t)
		call := &host.CallRequest{
			Tool:    t.Name,
			Input:   input,
			Session: br.session(req.Session),
			Caller:  callerOf(ctx, br.local),
			Agent:   br.opts.Agent,
		}
		// Without a progress token or logs to send, the call's activity
		// goes unread: the mod answers in one round trip, not a stream.
		if progress != nil || wantsLogs(req) && !sessionLogsOff(ctx) {
			call.OnActivity = func(ev host.ActivityEvent) {
				switch ev.Update.Kind {
				case sdk.ActivityTitle, sdk.ActivityStatus:
					if progress != nil {
						progress.Push(ev.Update.Text)
					}
				case sdk.ActivityLog:
					err := req.Session.Log(ctx, &mcp.LoggingMessageParams{
						Level:  LogLevel,
						Logger: t.Mod,
						Data:   ev.Update.Text,
					})
					if err != nil {
						br.opts.Logger.Debug("mcp: log notification", "tool", t.Name, "err", err)
					}
				}
			}
		}
		asker := newAsker(req)
		asker.loose = loose
		call.Asker = asker
		call.Answers = given
		if audit.NoteFrom(ctx) != nil {
			for _, a := range given {
				noteApproval(ctx, a.Question, a.Answer)
			}
			call.Asker = auditAsker{asker, ctx}
		}
		res, err := br.backend.Call(ctx, call)
		noteCall(ctx, res, err)
		if progress != nil {
			// The latest update precedes the result.
			progress.Flush()
		}
		return br.outcome(creatorOf(ctx), t, wrapped, input, asker, res, err)
	}
}

// wantsLogs reports whether a call's logs may reach its client: when its
// _meta names a level; else, in a session (before 2026-07-28), once its
// client set a level with logging/setLevel: before, the SDK sends none.
func wantsLogs(req *mcp.CallToolRequest) bool {
	meta := req.Params.GetMeta()
	if _, ok := meta[mcp.MetaKeyLogLevel]; ok {
		return true
	}
	_, stateless := meta[mcp.MetaKeyProtocolVersion]
	return !stateless && levelSet(req.Session)
}

// outcome is the MCP result of a call of t with input by owner
// (creatorOf) that returned res and err, its questions put by asker.
func (br *bridge) outcome(owner string, t host.Tool, wrapped bool, input []byte, asker *mcpAsker, res *host.CallResult, err error) (*mcp.CallToolResult, error) {
	if err == nil && res.Status == host.StatusAsking {
		return br.inputRequired(owner, t.Name, input, res) // the client asks, then calls again
	}
	if err == nil && res.Status == host.StatusFailed && asker.later && len(res.Unasked) > 0 {
		return nil, missingCapabilities(res.Unasked, res.Error)
	}
	if err != nil {
		if errors.Is(err, host.ErrClosed) {
			return nil, err
		}
		// Unknown or forbidden tools: the call did not happen, and the
		// model should read why.
		return errorResult(err.Error()), nil
	}
	return withActions(callResult(res, wrapped), t, res), nil
}

// ProgressInterval is the least time between two progress notifications of
// one call: title and status updates that come faster are coalesced, the
// latest always sent.
const ProgressInterval = 100 * time.Millisecond

// progress returns what sends a call's title and status updates as progress
// notifications, or nil when the client sent no progress token.
func (br *bridge) progress(ctx context.Context, req *mcp.CallToolRequest, t host.Tool) *coalesce.Coalescer[string] {
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	sent := 0
	return coalesce.New(ProgressInterval, func(text string) {
		sent++
		err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      float64(sent),
			Message:       text,
		})
		if err != nil {
			br.opts.Logger.Debug("mcp: progress notification", "tool", t.Name, "err", err)
		}
	})
}

// errorResult is an isError result carrying msg.
func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// callResult turns a host outcome into an MCP result.
func callResult(res *host.CallResult, wrapped bool) *mcp.CallToolResult {
	switch res.Status {
	case host.StatusCompleted:
	case host.StatusCancelled:
		msg := "Tool call cancelled"
		if res.Error != "" {
			msg += ": " + res.Error
		}
		return errorResult(msg)
	default:
		msg := res.Text
		if msg == "" {
			msg = "Tool failed: " + res.Error
		}
		return errorResult(msg)
	}
	out := &mcp.CallToolResult{Content: make([]mcp.Content, 0, 1+len(res.Outputs))}
	if res.Text != "" || len(res.Outputs) == 0 {
		out.Content = append(out.Content, &mcp.TextContent{Text: res.Text})
	}
	for i, o := range res.Outputs {
		out.Content = append(out.Content, outputContent(res, i, o))
	}
	if len(res.Result) > 0 {
		if wrapped {
			out.StructuredContent = map[string]json.RawMessage{"result": res.Result}
		} else {
			out.StructuredContent = res.Result
		}
	}
	return out
}

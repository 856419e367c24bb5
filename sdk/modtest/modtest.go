package modtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/sdk"
)

// Defaults used when Options leaves a field empty.
const (
	// DefaultToday is the date handlers see unless Options.Today is set.
	DefaultToday = "2026-01-02"
	// DefaultSessionID is the session id handlers see unless
	// Options.SessionID is set.
	DefaultSessionID = "modtest-session"
	// DefaultCallID is the call id handlers see unless Options.CallID is set.
	DefaultCallID = "modtest-call-1"
)

// Options configure one run. A nil *Options means all defaults.
type Options struct {
	// Today is the host's date, "YYYY-MM-DD"; DefaultToday when empty.
	Today string
	// SessionID identifies the session; DefaultSessionID when empty.
	SessionID string
	// Workspace is the session's workspace root, usually t.TempDir(). Empty
	// means the session has no workspace. Handlers open it as an *os.Root
	// with ToolContext.Workspace, as under a host.
	Workspace string
	// CallID is the tool call's id; DefaultCallID when empty.
	CallID string
	// Logger receives the handler's logs. When nil, Run and the other
	// functions taking a testing.TB log through t.Log, and Call discards.
	Logger *slog.Logger
	// Context is the parent of the call's context; cancelling it cancels
	// the call. context.Background when nil.
	Context context.Context
	// CancelWhen, when set, is shown every activity update as the handler
	// sends it; the call is cancelled as soon as it returns true.
	CancelWhen func(u sdk.ActivityUpdate) bool
	// Hooks makes Run first run the mod's own hooks on sdk.ActionToolCall,
	// after the input is validated, as a host does. A refusal fails the
	// call with "blocked by a hook of mod <id>: <reason>".
	Hooks bool
}

// Status is how a call ended.
type Status string

// The three outcomes of a call.
const (
	// Completed: the handler returned a result.
	Completed Status = "completed"
	// Failed: the input was invalid, or the handler returned an error or
	// panicked.
	Failed Status = "failed"
	// Cancelled: the call's context was cancelled while it ran.
	Cancelled Status = "cancelled"
)

// Outcome is how one tool call ended and everything it produced.
type Outcome struct {
	// Status is completed, failed or cancelled.
	Status Status
	// Text is what the model reads: the result's text when completed,
	// "Tool failed: <message>" when failed, empty when cancelled. Invalid
	// input reads "Tool failed: invalid input for tool <name>:" followed by
	// one indented line per problem, as from a host.
	Text string
	// Result is a rendered tool's typed result as JSON; nil otherwise or
	// when the call did not complete.
	Result json.RawMessage
	// Output is a plain tool's optional output.
	Output *sdk.Output
	// Extra are further outputs of a plain tool.
	Extra []sdk.Output
	// Err is why the call failed: an *sdk.InputError for invalid input, the
	// handler's error, or the recovered panic. For a cancelled call it is
	// whatever the handler returned, often nil or context.Canceled.
	Err error
	// Activity is the call's activity with the rules applied: first title
	// wins, status replaces, log entries numbered, nothing after the call
	// ended or was cancelled.
	Activity sdk.ActivityState
	// Updates are the raw activity updates in the order the handler sent
	// them, including any sent after cancellation.
	Updates []sdk.ActivityUpdate
	// Elapsed is how long the handler ran.
	Elapsed time.Duration
	// SinceCancel is how long the handler ran after the call was cancelled;
	// zero unless Status is Cancelled.
	SinceCancel time.Duration

	tool  string
	input json.RawMessage
}

// Run runs the named tool of g with input, as a host would, and returns its
// outcome. It fails t at once when the tool does not exist or input cannot
// be encoded; a tool that fails is an Outcome, not a test failure. In the
// mod's own package, Run first fails t when the generated files are out of
// date: "mod ID (DIR): generated files are out of date; run go generate in
// DIR".
func Run(t testing.TB, g *sdk.Generated, tool string, input any, opts *Options) *Outcome {
	t.Helper()
	if err := freshness.CheckWorkingDir(g.Manifest); err != nil {
		t.Fatalf("modtest: %v", err)
	}
	opts = withTestLogger(t, opts)
	out, err := Call(g, tool, input, opts)
	if err != nil {
		t.Fatalf("modtest: %v", err)
	}
	return out
}

// Call is Run without a testing.TB: it returns an error for a tool that does
// not exist or input that cannot be encoded.
func Call(g *sdk.Generated, tool string, input any, opts *Options) (*Outcome, error) {
	if opts == nil {
		opts = &Options{}
	}
	t, ok := g.Tool(tool)
	if !ok {
		return nil, fmt.Errorf("mod %s has no tool %q (it has %s)", modID(g), tool, strings.Join(toolNames(g), ", "))
	}
	data, err := encodeInput(input)
	if err != nil {
		return nil, fmt.Errorf("input for %s: %w", tool, err)
	}
	out := &Outcome{tool: tool, input: data}

	parent := opts.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()

	decoded, err := g.Decode(t, data)
	if err != nil {
		out.fail(err)
		out.Activity.End()
		return out, nil
	}

	if opts.Hooks {
		if err := toolHooks(ctx, g, tool, data, opts); err != nil {
			out.fail(err)
			out.Activity.End()
			return out, nil
		}
	}

	rec := &recorder{out: out, cancel: cancel, when: opts.CancelWhen}
	rec.watch(ctx)
	tc := sdk.NewToolContext(ctx, sdk.CallInfo{
		Session: session(opts),
		CallID:  orDefault(opts.CallID, DefaultCallID),
		Today:   orDefault(opts.Today, DefaultToday),
		Logger:  opts.Logger,
	}, rec)

	start := time.Now()
	res, err := invoke(tool, t, tc, decoded)
	end := time.Now()
	tc.End()

	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.done = true
	if rec.cancelledAt.IsZero() && ctx.Err() != nil {
		// Cancelled from outside, and the handler noticed before the
		// watcher ran.
		rec.cancelledAt = end
	}
	out.Elapsed = end.Sub(start)
	out.Activity.End()
	switch {
	case !rec.cancelledAt.IsZero():
		out.Status = Cancelled
		out.Err = err
		out.SinceCancel = end.Sub(rec.cancelledAt)
	case err != nil:
		out.fail(err)
	default:
		out.Status = Completed
		out.Text = res.Text
		out.Result = res.Data
		out.Output = res.Output
		out.Extra = res.Extra
	}
	return out, nil
}

// ViewState returns the view state of the finished call: completed with its
// input and result, or failed with its error. A cancelled call renders as
// failed with the error "call cancelled".
func (o *Outcome) ViewState() sdk.RawViewState {
	s := sdk.RawViewState{Input: o.input}
	switch o.Status {
	case Completed:
		s.Phase = sdk.PhaseCompleted
		s.Result = o.Result
	case Cancelled:
		s.Phase = sdk.PhaseFailed
		s.Error = "call cancelled"
	default:
		s.Phase = sdk.PhaseFailed
		s.Error = o.message()
	}
	return s
}

func (o *Outcome) fail(err error) {
	o.Status = Failed
	o.Err = err
	o.Text = "Tool failed: " + o.message()
}

// message is why the call failed, worded as a host words it.
func (o *Outcome) message() string {
	var ie *sdk.InputError
	switch {
	case errors.As(o.Err, &ie):
		return limits.Message("invalid input for tool "+o.tool+":", limits.Problems(ie.Problems, ie.More))
	case o.Err == nil:
		return "tool " + o.tool + " failed without a message"
	default:
		return o.Err.Error()
	}
}

// toolHooks runs g's hooks on sdk.ActionToolCall and returns the first
// refusal.
func toolHooks(ctx context.Context, g *sdk.Generated, tool string, input json.RawMessage, opts *Options) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("hook of mod %s panicked: %v", modID(g), r)
		}
	}()
	action := sdk.Action{Name: sdk.ActionToolCall, Tool: tool, Input: input}
	for _, h := range g.Mod.Hooks {
		if h.BeforeAction != sdk.ActionToolCall || h.Run == nil {
			continue
		}
		if err := h.Run(ctx, Env(opts), action); err != nil {
			return fmt.Errorf("blocked by a hook of mod %s: %w", modID(g), err)
		}
	}
	return nil
}

// invoke runs the handler, turning a panic into an error.
func invoke(name string, t sdk.Tool, tc *sdk.ToolContext, input any) (res *sdk.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("tool %s panicked: %v", name, r)
		}
	}()
	res, err = t.Invoke(tc, input)
	if err == nil && res == nil {
		err = fmt.Errorf("tool %s returned no result", name)
	}
	return res, err
}

// recorder is the call's activity sink.
type recorder struct {
	mu          sync.Mutex
	out         *Outcome
	cancel      context.CancelFunc
	when        func(sdk.ActivityUpdate) bool
	cancelledAt time.Time
	done        bool // the call has ended; nothing more is recorded
}

// watch notes the moment ctx is cancelled, whoever cancels it.
func (r *recorder) watch(ctx context.Context) {
	context.AfterFunc(ctx, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.done {
			r.markCancelled()
		}
	})
}

// markCancelled records the cancellation; r.mu is held.
func (r *recorder) markCancelled() {
	if r.cancelledAt.IsZero() {
		r.cancelledAt = time.Now()
		r.out.Activity.End()
	}
}

// Activity implements sdk.ActivitySink.
func (r *recorder) Activity(u sdk.ActivityUpdate) {
	r.mu.Lock()
	if r.done {
		r.mu.Unlock()
		return
	}
	r.out.Updates = append(r.out.Updates, u)
	r.out.Activity.Apply(u)
	cancel := r.cancelledAt.IsZero() && r.when != nil && r.when(u)
	if cancel {
		r.markCancelled()
	}
	r.mu.Unlock()
	if cancel {
		r.cancel()
	}
}

func encodeInput(input any) (json.RawMessage, error) {
	switch v := input.(type) {
	case string:
		return json.RawMessage(v), nil
	case []byte:
		return json.RawMessage(v), nil
	case json.RawMessage:
		return v, nil
	case nil:
		return json.RawMessage("{}"), nil
	}
	data, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	return data, nil
}

func session(opts *Options) sdk.Session {
	return sdk.Session{ID: orDefault(opts.SessionID, DefaultSessionID), Workspace: opts.Workspace}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func modID(g *sdk.Generated) string {
	if g.Mod.Metadata.ID != "" {
		return g.Mod.Metadata.ID
	}
	return "(unnamed)"
}

func toolNames(g *sdk.Generated) []string {
	var names []string
	for _, t := range g.Mod.AI.Tools {
		names = append(names, t.Info().Name)
	}
	if len(names) == 0 {
		return []string{"no tools"}
	}
	return names
}

// withTestLogger returns opts with a logger that writes through t.Log when
// opts has none.
func withTestLogger(t testing.TB, opts *Options) *Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return &o
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

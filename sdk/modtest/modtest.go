package modtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
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
	// Caller is who the call is made for, as the handler's
	// sdk.ToolContext.Caller reads it (and its approval rule's). When nil,
	// the handler reads the zero Caller, as under a host that names
	// nobody.
	Caller *sdk.Caller
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
	// MaxResultBytes caps a tool's result and a command's message, as a
	// host's option of the same name does; DefaultMaxResultBytes when 0.
	MaxResultBytes int
	// Approver answers for the person when the tool's approval rule says
	// a call needs approval, after the input is validated (and the hooks
	// ran, with Hooks). Without one, such a call fails as on a host with
	// no approver: the tool needs approval and none could be asked.
	Approver Approver
	// Answers script the answers to the questions a handler asks
	// mid-call (a tool's, or a slash command's Prompt, through sdk.Env),
	// by question key: an sdk.Answer for a form or a URL
	// question, an sdk.Sampled for a sample, a []sdk.Root for roots. The
	// handler is run again from the start after each answer, as under a
	// host (see sdk.ToolContext.Ask). A question with no answer here fails
	// the call, naming it; with Answers nil, nothing can be asked and the
	// handler's questions return an error wrapping sdk.ErrCannotAsk.
	Answers map[string]any
	// Client, when set, is the client application that runs the tools
	// that run in the client (see Client). When nil, a tool that runs
	// either way runs in the mod, and one that runs only in the client
	// fails, as under a host with no handler for it.
	Client *Client
	// Unconfined runs the mod's code in the test's process, as modtest
	// did before it confined mods: the test gives up the host's
	// confinement, so a handler may connect, write or run what its
	// declared permissions do not allow, and pass where a host refuses
	// it. It suits a mod whose handlers share state with the test (a
	// variable, a channel). Without it, a tool runs in a process of the
	// test binary confined as a host confines the mod; see "Confined
	// like the host" in the package doc.
	Unconfined bool
}

// DefaultMaxResultBytes is a host's default cap on a tool's result and a
// command's message.
const DefaultMaxResultBytes = modapi.DefaultMaxResultBytes

// Status is how a call ended: completed, failed, cancelled or denied. It
// is host.Status: one type, so an outcome compares with a host's.
type Status = modapi.Status

// The outcomes of a call, named as host.Status names them.
const (
	// StatusCompleted: the handler returned a result.
	StatusCompleted = modapi.StatusCompleted
	// StatusFailed: the input was invalid, or the handler returned an
	// error or panicked.
	StatusFailed = modapi.StatusFailed
	// StatusCancelled: the call's context was cancelled while it ran.
	StatusCancelled = modapi.StatusCancelled
	// StatusDenied: the person declined the call's approval; the handler
	// never ran.
	StatusDenied = modapi.StatusDenied
)

// The outcomes' first names, kept for tests written against them.
const (
	// Completed is StatusCompleted.
	//
	// Deprecated: use [StatusCompleted], as host.Status names it.
	Completed = StatusCompleted
	// Failed is StatusFailed.
	//
	// Deprecated: use [StatusFailed], as host.Status names it.
	Failed = StatusFailed
	// Cancelled is StatusCancelled.
	//
	// Deprecated: use [StatusCancelled], as host.Status names it.
	Cancelled = StatusCancelled
	// Denied is StatusDenied.
	//
	// Deprecated: use [StatusDenied], as host.Status names it.
	Denied = StatusDenied
)

// Outcome is how one tool call ended and everything it produced.
type Outcome struct {
	// Status is completed, failed, cancelled or denied.
	Status Status
	// Text is what the model reads: the result's text when completed,
	// "Tool failed: <message>" when failed, that the person declined when
	// denied, empty when cancelled. Invalid
	// input reads "Tool failed: invalid input for tool <name>:" followed by
	// one indented line per problem, as from a host.
	Text string
	// Result is a rendered tool's typed result as JSON; nil otherwise or
	// when the call did not complete.
	Result json.RawMessage
	// Outputs are a plain tool's Output followed by its Extra, as a host
	// returns them.
	Outputs []sdk.Output
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
	// zero unless Status is StatusCancelled.
	SinceCancel time.Duration
	// ApprovalReason is what the person was asked to approve; empty when
	// the call needed no approval.
	ApprovalReason string
	// Actions are the client actions of a completed call, in order, each
	// checked against its kind as a mod process checks it; see WantActions.
	Actions []sdk.ClientAction

	// ClientInput is the validated input the client received, for a call
	// a Client ran; nil when the mod ran it.
	ClientInput json.RawMessage
	// DroppedAnswers are the client's answers after the first, which a
	// host drops and logs.
	DroppedAnswers []sdk.ClientAnswer
	// Questions are the questions the handler asked, in the order asked;
	// Runs counts the handler's runs (one more than the answers it got).
	Questions []Question
	Runs      int

	tool  string
	input json.RawMessage
	msg   string // why the call failed, as a host words it
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
//
// The call runs through the same server code a mod process runs, so input
// decoding, panic recovery, the result cap and the failure wording are a
// host's.
func Call(g *sdk.Generated, tool string, input any, opts *Options) (*Outcome, error) {
	if opts == nil {
		opts = &Options{}
	}
	names := modserver.ToolNames(g)
	if !slices.Contains(names, tool) {
		if len(names) == 0 {
			names = []string{"no tools"}
		}
		return nil, fmt.Errorf("mod %s has no tool %q (it has %s)", modID(g), tool, strings.Join(names, ", "))
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

	man, checkActions, err := toolManifest(g, tool)
	if err != nil {
		return nil, err
	}
	c := &call{g: g, man: man, opts: opts, out: out, checkActions: checkActions,
		rec: &recorder{out: out, cancel: cancel, when: opts.CancelWhen}}
	m, confined, err := open(g, opts)
	if err != nil {
		return nil, err
	}
	defer confined.stop()
	c.M = inProcessMod{m}
	if confined != nil {
		c.validate = confined.validate
	}
	return c.run(ctx), nil
}

// ViewState returns the view state of the finished call: completed with its
// input and result, or failed with its error. A cancelled call renders as
// failed with the error "call cancelled".
func (o *Outcome) ViewState() sdk.RawViewState {
	s := sdk.RawViewState{Input: o.input}
	switch o.Status {
	case StatusCompleted:
		s.Phase = sdk.PhaseCompleted
		s.Result = o.Result
	case StatusCancelled:
		s.Phase = sdk.PhaseFailed
		s.Error = "call cancelled"
	default:
		s.Phase = sdk.PhaseFailed
		s.Error = o.msg
	}
	return s
}

// endAs ends the call as e says (callflow builds every ending).
func (o *Outcome) endAs(e callflow.Ending) *Outcome {
	o.Status = e.Status
	o.Text = e.Text
	o.msg = e.Error
	o.Err = e.Cause
	if o.Err == nil && e.Status == modapi.StatusFailed {
		o.Err = errors.New(e.Error)
	}
	o.Activity.Ended = true
	return o
}

func maxBytes(opts *Options) int {
	if opts.MaxResultBytes > 0 {
		return opts.MaxResultBytes
	}
	return DefaultMaxResultBytes
}

// recorder is the call's activity sink.
type recorder struct {
	mu          sync.Mutex
	out         *Outcome
	cancel      context.CancelFunc
	when        func(sdk.ActivityUpdate) bool
	cancelledAt time.Time
	done        bool // the call has ended; nothing more is recorded
	act         modapi.Applier
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
		r.out.Activity.Ended = true
	}
}

// Activity records one update the handler sent.
func (r *recorder) Activity(u sdk.ActivityUpdate) {
	r.mu.Lock()
	if r.done {
		r.mu.Unlock()
		return
	}
	r.out.Updates = append(r.out.Updates, u)
	r.act.Apply(&r.out.Activity, u)
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

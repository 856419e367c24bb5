package sdk

import (
	"context"
	"log/slog"
	"os"
	"sync"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/sdkrt"
)

func init() {
	sdkrt.ToolOf = func(t any) (sdkrt.Tool, bool) {
		tool, ok := t.(Tool)
		if !ok {
			return nil, false
		}
		return tool.runtime(), true
	}
}

// ToolContext is what a tool handler receives besides its input: cancellation,
// the session, the call id, today's date, the activity channel and a logger.
// It belongs to one call: after Run returns, activity updates are dropped and
// Context is cancelled. Never keep it.
type ToolContext struct {
	// parent is the call's context; ctx, made from it on first use, is
	// cancelled when the call ends too. Most handlers never look at
	// theirs, and a child context is five allocations a call.
	parent   context.Context
	ctxMu    sync.Mutex
	ctx      context.Context
	cancel   context.CancelFunc
	ctxEnded bool // the call has ended: a ctx made now is cancelled

	call   sdkrt.Call
	mu     sync.Mutex
	ended  bool
	logger *slog.Logger // made on first use
	budget limits.LogBudget
	// root is the workspace, once Workspace opened it.
	root    *os.Root
	rootErr error
	// actions are those Act received, until the runtime takes them.
	actions []ClientAction
}

// newToolContext returns the context for one call; the runtime ends it
// when the handler returns.
func newToolContext(ctx context.Context, call sdkrt.Call) *ToolContext {
	return &ToolContext{parent: ctx, call: call}
}

// end closes the context: later activity is dropped and Context is cancelled.
func (c *ToolContext) end() {
	c.mu.Lock()
	c.ended = true
	if c.root != nil {
		c.root.Close()
	}
	c.mu.Unlock()
	c.ctxMu.Lock()
	c.ctxEnded = true
	cancel := c.cancel
	c.ctxMu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Context is cancelled when the call is cancelled or has ended. Pass it to
// long work and check Done between steps. When the host traces the call, it
// carries the call's OpenTelemetry span: spans started from it with
// otel.Tracer(...) nest under the call, and the host exports them.
func (c *ToolContext) Context() context.Context {
	c.ctxMu.Lock()
	defer c.ctxMu.Unlock()
	if c.ctx == nil {
		c.ctx, c.cancel = context.WithCancel(c.parent)
		if c.ctxEnded {
			c.cancel()
		}
	}
	return c.ctx
}

// Done is shorthand for Context().Done().
func (c *ToolContext) Done() <-chan struct{} { return c.Context().Done() }

// Err is shorthand for Context().Err().
func (c *ToolContext) Err() error { return c.Context().Err() }

// Session returns the calling session.
func (c *ToolContext) Session() Session {
	return Session{ID: c.call.SessionID, Workspace: c.call.Workspace}
}

// CallID returns the host-owned identity of this call.
func (c *ToolContext) CallID() string { return c.call.CallID }

// Today returns the host's date, "YYYY-MM-DD". Use it, never the wall clock,
// for "today": tests pin it.
func (c *ToolContext) Today() string { return c.call.Today }

// Logger returns a logger that writes to the host's log, never to stdout.
func (c *ToolContext) Logger() *slog.Logger {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.logger == nil {
		if c.call.Logger != nil {
			c.logger = c.call.Logger.Logger()
		}
		if c.logger == nil {
			c.logger = slog.New(slog.DiscardHandler)
		}
	}
	return c.logger
}

// Title sets the call's title; the first title wins.
func (c *ToolContext) Title(text string) { c.send(ActivityUpdate{Kind: ActivityTitle, Text: text}) }

// Status replaces the call's current status line: "Searching 120 of 2,031 files…".
func (c *ToolContext) Status(text string) { c.send(ActivityUpdate{Kind: ActivityStatus, Text: text}) }

// Log appends an entry to the call's log; the host numbers entries in order.
func (c *ToolContext) Log(message string) { c.send(ActivityUpdate{Kind: ActivityLog, Text: message}) }

// send passes u to the runtime, within the activity limits ActivityState
// describes, so that a flood never leaves the mod.
func (c *ToolContext) send(u ActivityUpdate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended || c.call.Activity == nil {
		return
	}
	text := limits.Cut(u.Text, limits.MaxActivityText)
	if u.Kind == ActivityLog {
		var ok bool
		if text, ok = c.budget.Admit(text); !ok {
			return
		}
	}
	c.call.Activity.Activity(string(u.Kind), text)
}

package sdkrt

import (
	"context"
	"log/slog"
)

// Tool is a tool as a runtime runs it.
type Tool interface {
	// Name is the tool's name.
	Name() string
	// Decode decodes input with encoding/json, for tools with no generated
	// decoder; problems are reported as *sdk.InputError.
	Decode(data []byte) (any, error)
	// Run runs the handler with input, a value Decode or the generated
	// decoder returned, and ends the handler's ToolContext when it returns.
	// An input type's Validate error is an *sdk.InputError.
	Run(ctx context.Context, call Call, input any) (*Result, error)
	// RenderView renders the tool's custom view for one phase; ok is false
	// when the tool has none.
	RenderView(state *ViewState) (html string, ok bool, err error)
	// ClientActionKinds are the client action kinds the tool declares, in
	// order.
	ClientActionKinds() []string
	// Validate runs the input type's Validate method, if it has one, on
	// input, a value Decode or the generated decoder returned; problems
	// are an *sdk.InputError.
	Validate(input any) error
}

// Call is what a handler's ToolContext is made of.
type Call struct {
	SessionID, Workspace string
	// CallID is the host-owned identity of the call.
	CallID string
	// Today is the host's date, "YYYY-MM-DD".
	Today string
	// Caller is who the call is made for, an *sdk.Caller; nil when the
	// host named nobody.
	Caller any
	// Logger makes the handler's logger, on the handler's first call to
	// ToolContext.Logger only: most handlers never log, and a logger with
	// the call's attributes costs more to make than the rest of a call.
	// Nil, or a nil logger, discards.
	Logger LoggerMaker
	// Activity receives the handler's activity updates in order, one at a
	// time, until the handler returns; nil drops them.
	Activity ActivitySink
	// ResourceUpdated receives the URIs of the resources the handler says
	// changed; nil drops them.
	ResourceUpdated func(uri string)
	// Ask answers the handler's questions; nil means none can be asked.
	Ask Asker
}

// Logger, Activity and Ask are interfaces, not funcs, so that a runtime
// can serve all three from one value it allocates for the call anyway:
// a func each was a closure allocated on every call.

// LoggerMaker makes a handler's logger.
type LoggerMaker interface {
	Logger() *slog.Logger
}

// LoggerFunc is a LoggerMaker.
type LoggerFunc func() *slog.Logger

// Logger implements LoggerMaker.
func (f LoggerFunc) Logger() *slog.Logger { return f() }

// ActivitySink receives a handler's activity updates. Kind is "title",
// "status" or "log".
type ActivitySink interface {
	Activity(kind, text string)
}

// ActivityFunc is an ActivitySink.
type ActivityFunc func(kind, text string)

// Activity implements ActivitySink.
func (f ActivityFunc) Activity(kind, text string) { f(kind, text) }

// Result is a handler's result as the wire carries it.
type Result struct {
	Text string
	// Data is a rendered tool's typed result as JSON.
	Data []byte
	// Outputs are a plain tool's Output followed by its Extra.
	Outputs []Output
	// Actions are the client actions the handler emitted, in order.
	Actions []Action
}

// Output is a payload with a MIME type.
type Output struct {
	MimeType, Content, URI string
}

// ViewState is the state a view renders, with input and result still JSON.
type ViewState struct {
	// Phase is "preparing", "running", "completed" or "failed".
	Phase  string
	Input  []byte
	Result []byte
	Error  string
}

// ToolOf returns the runtime view of tool, an sdk.Tool, and false for
// anything else. Package sdk sets it when it initializes.
var ToolOf func(tool any) (Tool, bool)

// SetEnvNotify makes env, an *sdk.Env, pass the URIs its ResourceUpdated
// receives to notify. Package sdk sets it when it initializes.
var SetEnvNotify func(env any, notify func(uri string))

// SetEnvAsk makes env, an *sdk.Env, answer its questions with ask. Package
// sdk sets it when it initializes.
var SetEnvAsk func(env any, ask Asker)

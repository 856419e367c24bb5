package telemetry

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// tracerName is the instrumentation scope of the host's spans.
const tracerName = "github.com/modkit/modkit/host"

// The steps of a call that get a span of their own.
const (
	StepValidate = "validate input"
	StepHooks    = "hooks"
	StepApproval = "approval"
	StepQuestion = "question"
	StepModStart = "mod start"
	StepBuild    = "build"
)

// Span is a span that may be off: its methods do nothing then. A call's
// span ([StartCall]) is recorded without the SDK and takes its attributes
// in one go from [Span.EndCall]: Set and Fail do nothing on it.
type Span struct {
	s    trace.Span
	call *callRecord // a call's span, recorded without the SDK
}

// End ends the span.
func (s Span) End() {
	switch {
	case s.s != nil:
		s.s.End()
	case s.call != nil:
		s.call.endCall("", "", "")
	}
}

// Fail marks the span failed: error.type errType, and msg as its status.
func (s Span) Fail(errType, msg string) {
	if s.s == nil {
		return
	}
	s.s.SetAttributes(attribute.String("error.type", errType))
	s.s.SetStatus(codes.Error, msg)
}

// Set sets a string attribute.
func (s Span) Set(key, value string) {
	if s.s != nil && value != "" {
		s.s.SetAttributes(attribute.String(key, value))
	}
}

// EndCall sets the attributes of a call of tool and its outcome, in one
// go, and ends the span: the host's id for the call (empty when no call
// happened), the caller's label, and error.type tool_error with the error
// when it failed.
func (s Span) EndCall(tool, callID, label, failure string) {
	if s.call != nil {
		s.call.endCall(callID, label, failure)
		return
	}
	if s.s == nil {
		return
	}
	var kvs [4]attribute.KeyValue
	kvs[0] = attribute.String("gen_ai.tool.name", tool)
	n := 1
	if callID != "" {
		kvs[n] = attribute.String("modkit.call.id", callID)
		n++
	}
	if label != "" {
		kvs[n] = attribute.String("modkit.call.label", label)
		n++
	}
	if failure != "" {
		kvs[n] = attribute.String("error.type", "tool_error")
		n++
		s.s.SetStatus(codes.Error, failure)
	}
	s.s.SetAttributes(kvs[:n]...)
	s.s.End()
}

// hostTracer is the host's tracer, from the provider Setup made.
var hostTracer atomic.Pointer[trace.Tracer]

func tracer() trace.Tracer {
	if t := hostTracer.Load(); t != nil {
		return *t
	}
	return otel.Tracer(tracerName)
}

// StartRequest starts the span of one MCP request, SERVER kind, named
// "{method} {tool}" (the tool's name only for tools/call), with the
// request's JSON-RPC id when it has one. Its parent is the trace context
// in the request's _meta (traceparent, tracestate, baggage), else in its
// HTTP headers.
func StartRequest(ctx context.Context, method, tool, session, requestID string, meta map[string]any, header http.Header) (context.Context, Span) {
	if !tracingOn.Load() {
		return ctx, Span{}
	}
	ctx = parentFrom(ctx, meta, header)
	name := method
	var kvs [5]attribute.KeyValue
	kvs[0] = attribute.String("mcp.method.name", method)
	n := 1
	if tool != "" {
		name += " " + tool
		kvs[1] = attribute.String("gen_ai.tool.name", tool)
		kvs[2] = attribute.String("gen_ai.operation.name", "execute_tool")
		n = 3
	}
	if session != "" {
		kvs[n] = attribute.String("mcp.session.id", session)
		n++
	}
	if requestID != "" {
		kvs[n] = attribute.String("jsonrpc.request.id", requestID)
		n++
	}
	ctx, s := tracer().Start(ctx, name, serverKind, trace.WithAttributes(kvs[:n]...))
	return ctx, Span{s: s}
}

var serverKind = trace.WithSpanKind(trace.SpanKindServer)

// parentFrom returns ctx under the trace context of _meta, else of the
// HTTP headers.
func parentFrom(ctx context.Context, meta map[string]any, header http.Header) context.Context {
	if tp, ok := meta["traceparent"].(string); ok && tp != "" {
		c := propagation.MapCarrier{"traceparent": tp}
		for _, k := range []string{"tracestate", "baggage"} {
			if v, ok := meta[k].(string); ok {
				c[k] = v
			}
		}
		return Propagator.Extract(ctx, c)
	}
	if header.Get("traceparent") != "" {
		return Propagator.Extract(ctx, propagation.HeaderCarrier(header))
	}
	return ctx
}

// StartCall starts the span of the host's call of one tool; EndCall
// gives it its attributes and ends it. tool is one of the host's tools:
// the span's name is kept for each. The span is recorded cheaply and
// becomes an OpenTelemetry span when it is exported.
func StartCall(ctx context.Context, tool string) (context.Context, Span) {
	if !tracingOn.Load() {
		return ctx, Span{}
	}
	m := modSink.Load()
	if m == nil {
		return ctx, Span{}
	}
	return startCall(ctx, m, tool)
}

// callNames are the names of the call spans, by tool (a *namedTool): a
// set as small as the host's tools. lastCall is the one found last: a
// host calling one tool over and over finds its name without a lookup.
var (
	callNames sync.Map
	lastCall  atomic.Pointer[namedTool]
)

type namedTool struct{ tool, name string }

func callName(tool string) string {
	if l := lastCall.Load(); l != nil && l.tool == tool {
		return l.name
	}
	v, ok := callNames.Load(tool)
	if !ok {
		v, _ = callNames.LoadOrStore(tool, &namedTool{tool, "call " + tool})
	}
	n := v.(*namedTool)
	lastCall.Store(n)
	return n.name
}

// stepOptions are the start options of the steps' spans, made once.
var stepOptions = func() map[string]trace.SpanStartOption {
	m := map[string]trace.SpanStartOption{}
	for _, step := range []string{StepValidate, StepHooks, StepApproval, StepQuestion, StepModStart, StepBuild} {
		m[step] = trace.WithAttributes(attribute.String("modkit.step", step))
	}
	return m
}()

func stepOption(step string) trace.SpanStartOption {
	if o, ok := stepOptions[step]; ok {
		return o
	}
	return trace.WithAttributes(attribute.String("modkit.step", step))
}

// StartStep starts the span of one step of a call (StepValidate, …);
// subject, when set, names what the step is about (the mod, the question's
// kind) and ends the span's name.
func StartStep(ctx context.Context, step, subject string) (context.Context, Span) {
	if !tracingOn.Load() || !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx, Span{}
	}
	name := step
	if subject != "" {
		name += " " + subject
	}
	ctx, s := tracer().Start(ctx, name, stepOption(step))
	return ctx, Span{s: s}
}

// PastStep records a step that already happened, from start to end, under
// ctx's span: a mod's build, which runs outside any call's context.
func PastStep(ctx context.Context, step, subject string, start, end time.Time, failed bool) {
	if !tracingOn.Load() || !trace.SpanContextFromContext(ctx).IsValid() {
		return
	}
	name := step
	if subject != "" {
		name += " " + subject
	}
	_, s := tracer().Start(ctx, name, trace.WithTimestamp(start), stepOption(step))
	if failed {
		s.SetStatus(codes.Error, step+" failed")
	}
	s.End(trace.WithTimestamp(end))
}

package telemetry

import (
	"context"
	"net/http"
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

// Span is a span that may be off: its methods do nothing then.
type Span struct{ s trace.Span }

// End ends the span.
func (s Span) End() {
	if s.s != nil {
		s.s.End()
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

// SetCall sets the attributes of a call's outcome: the host's id for it,
// the caller's label, and error.type tool_error with the error when it
// failed.
func (s Span) SetCall(callID, label, failure string) {
	if s.s == nil {
		return
	}
	kvs := make([]attribute.KeyValue, 0, 3)
	kvs = append(kvs, attribute.String("modkit.call.id", callID))
	if label != "" {
		kvs = append(kvs, attribute.String("modkit.call.label", label))
	}
	if failure != "" {
		kvs = append(kvs, attribute.String("error.type", "tool_error"))
		s.s.SetStatus(codes.Error, failure)
	}
	s.s.SetAttributes(kvs...)
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
// "{method} {tool}" (the tool's name only for tools/call). Its parent is
// the trace context in the request's _meta (traceparent, tracestate,
// baggage), else in its HTTP headers.
func StartRequest(ctx context.Context, method, tool, session string, meta map[string]any, header http.Header) (context.Context, Span) {
	if !tracingOn.Load() {
		return ctx, Span{}
	}
	ctx = parentFrom(ctx, meta, header)
	name := method
	attrs := []attribute.KeyValue{attribute.String("mcp.method.name", method)}
	if tool != "" {
		name += " " + tool
		attrs = append(attrs, attribute.String("gen_ai.tool.name", tool), attribute.String("gen_ai.operation.name", "execute_tool"))
	}
	if session != "" {
		attrs = append(attrs, attribute.String("mcp.session.id", session))
	}
	ctx, s := tracer().Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	return ctx, Span{s}
}

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

// StartCall starts the span of the host's call of one tool.
func StartCall(ctx context.Context, tool string) (context.Context, Span) {
	if !tracingOn.Load() {
		return ctx, Span{}
	}
	ctx, s := tracer().Start(ctx, "call "+tool, trace.WithAttributes(attribute.String("gen_ai.tool.name", tool)))
	return ctx, Span{s}
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
	ctx, s := tracer().Start(ctx, name, trace.WithAttributes(attribute.String("modkit.step", step)))
	return ctx, Span{s}
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
	_, s := tracer().Start(ctx, name, trace.WithTimestamp(start), trace.WithAttributes(attribute.String("modkit.step", step)))
	if failed {
		s.SetStatus(codes.Error, step+" failed")
	}
	s.End(trace.WithTimestamp(end))
}

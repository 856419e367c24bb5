package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/internal/modtrace"
)

// ModCallTrace returns the W3C trace context a tool call made under ctx
// carries to the mod on its call lane (where gRPC calls carry it in
// metadata), ok false when ctx has no sampled span. The mod's spans come
// back through [ModSpans].
func ModCallTrace(ctx context.Context) (traceparent, tracestate, bag string, ok bool) {
	traceparent, sc, ok := sampledParent(ctx)
	if !ok {
		return "", "", "", false
	}
	if ts := sc.TraceState(); ts.Len() > 0 {
		tracestate = ts.String()
	}
	if b := baggage.FromContext(ctx); b.Len() > 0 {
		bag = b.String()
	}
	return traceparent, tracestate, bag, true
}

// sampledParent returns the traceparent header of ctx's span and its span
// context, ok false when it is not sampled. A host call's span has its
// header written already.
func sampledParent(ctx context.Context) (traceparent string, sc trace.SpanContext, ok bool) {
	span := trace.SpanFromContext(ctx)
	sc = span.SpanContext()
	if !sc.IsSampled() {
		return "", sc, false
	}
	if r, ok := span.(*callRecord); ok {
		return r.traceparent(), sc, true
	}
	return modtrace.SpanContext{TraceID: sc.TraceID(), SpanID: sc.SpanID(), Flags: byte(sc.TraceFlags())}.Traceparent(), sc, true
}

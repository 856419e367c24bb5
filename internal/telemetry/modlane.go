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
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsSampled() {
		return "", "", "", false
	}
	traceparent = modtrace.SpanContext{TraceID: sc.TraceID(), SpanID: sc.SpanID(), Flags: byte(sc.TraceFlags())}.Traceparent()
	if ts := sc.TraceState(); ts.Len() > 0 {
		tracestate = ts.String()
	}
	if b := baggage.FromContext(ctx); b.Len() > 0 {
		bag = b.String()
	}
	return traceparent, tracestate, bag, true
}

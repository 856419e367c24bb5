package otelbridge

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/internal/modtrace"
)

func init() {
	otel.SetTracerProvider(provider{})
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	modtrace.SetBridge(toOtel)
}

// toOtel puts a span context of the mod runtime's in ctx where
// OpenTelemetry reads it, with the baggage the host sent.
func toOtel(ctx context.Context, sc modtrace.SpanContext, remote bool) context.Context {
	ts, _ := trace.ParseTraceState(sc.TraceState)
	osc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: sc.TraceID, SpanID: sc.SpanID, TraceFlags: trace.TraceFlags(sc.Flags), TraceState: ts, Remote: remote,
	})
	if remote && sc.Baggage != "" {
		if b, err := baggage.Parse(sc.Baggage); err == nil {
			ctx = baggage.ContextWithBaggage(ctx, b)
		}
	}
	return trace.ContextWithSpanContext(ctx, osc)
}

// fromOtel is the mod runtime's span context of osc, with the baggage of
// the call ctx is under.
func fromOtel(ctx context.Context, osc trace.SpanContext) modtrace.SpanContext {
	sc, _, _ := modtrace.FromContext(ctx)
	return modtrace.SpanContext{
		TraceID: osc.TraceID(), SpanID: osc.SpanID(), Flags: byte(osc.TraceFlags()),
		TraceState: osc.TraceState().String(), Baggage: sc.Baggage,
	}
}

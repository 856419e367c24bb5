package modserver

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/internal/modapi"
)

// tracerName is the instrumentation scope of the mod's own spans.
const tracerName = "github.com/modkit/modkit/mod"

// traceCall starts the span of a tool's handler when the call is traced,
// and returns what ends it with the outcome. An untraced call costs a
// context lookup.
func traceCall(ctx context.Context, req *modapi.CallRequest) (context.Context, func(*modapi.Outcome)) {
	if !trace.SpanContextFromContext(ctx).IsSampled() {
		return ctx, func(*modapi.Outcome) {}
	}
	ctx, span := otel.Tracer(tracerName).Start(ctx, "run_tool "+req.Tool,
		trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("gen_ai.tool.name", req.Tool), attribute.String("modkit.call.id", req.CallID)))
	return ctx, func(o *modapi.Outcome) {
		switch o.Status {
		case modapi.StatusFailed:
			span.SetAttributes(attribute.String("error.type", "tool_error"))
			span.SetStatus(codes.Error, o.Error)
		case modapi.StatusCancelled:
			span.SetAttributes(attribute.String("error.type", "cancelled"))
		case modapi.StatusAsking:
			span.SetAttributes(attribute.Int("modkit.questions", len(o.Questions)))
		}
		span.End()
	}
}

// traceHooks starts the span of the hooks on one action when it is traced.
func traceHooks(ctx context.Context, action string) (context.Context, func(refusal string)) {
	if !trace.SpanContextFromContext(ctx).IsSampled() {
		return ctx, func(string) {}
	}
	ctx, span := otel.Tracer(tracerName).Start(ctx, "run_hooks "+action, trace.WithSpanKind(trace.SpanKindServer))
	return ctx, func(refusal string) {
		if refusal != "" {
			span.SetAttributes(attribute.String("modkit.hook.refusal", refusal))
		}
		span.End()
	}
}

// withTrace adds the trace and span ids of a traced call to its logger.
func withTrace(ctx context.Context, log *slog.Logger) *slog.Logger {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		return log.With("trace_id", sc.TraceID().String(), "span_id", sc.SpanID().String())
	}
	return log
}

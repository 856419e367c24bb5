package modserver

import (
	"context"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modtrace"
)

// tracerName is the instrumentation scope of the mod's own spans.
const tracerName = "github.com/modkit/modkit/mod"

// traceCall starts the span of a tool's handler, named name, when the call
// is traced; [endTraceCall] ends it with the outcome. An untraced call
// costs a context lookup and gets a nil span. The span comes from
// modtrace's pool and goes back once its record is encoded: nothing uses
// it after endTraceCall.
func traceCall(ctx context.Context, name string, req *modapi.CallRequest) (context.Context, *modtrace.Span) {
	if !modtrace.Traced(ctx) {
		return ctx, nil
	}
	ctx, span := modtrace.StartReused(ctx, tracerName, name, modtrace.KindServer)
	span.SetString("gen_ai.tool.name", req.Tool)
	span.SetString("modkit.call.id", req.CallID)
	return ctx, span
}

// endTraceCall ends a handler's span, nil for an untraced call, with the
// call's outcome.
func endTraceCall(span *modtrace.Span, o *modapi.Outcome) {
	if span == nil {
		return
	}
	switch o.Status {
	case modapi.StatusFailed:
		span.SetAttributes(modtrace.String("error.type", "tool_error"))
		span.SetStatus(modtrace.StatusError, o.Error)
	case modapi.StatusCancelled:
		span.SetAttributes(modtrace.String("error.type", "cancelled"))
	case modapi.StatusAsking:
		span.SetAttributes(modtrace.Int("modkit.questions", int64(len(o.Questions))))
	}
	span.End(time.Time{})
}

// traceHooks starts the span of the hooks on one action when it is traced.
func traceHooks(ctx context.Context, action string) (context.Context, func(refusal string)) {
	if !modtrace.Traced(ctx) {
		return ctx, func(string) {}
	}
	ctx, span := modtrace.Start(ctx, tracerName, "run_hooks "+action, modtrace.KindServer)
	return ctx, func(refusal string) {
		if refusal != "" {
			span.SetAttributes(modtrace.String("modkit.hook.refusal", refusal))
		}
		span.End(time.Time{})
	}
}

// withTrace adds the trace and span ids of a traced call to its logger.
func withTrace(ctx context.Context, log *slog.Logger) *slog.Logger {
	if sc, _, ok := modtrace.FromContext(ctx); ok && sc.Valid() {
		return log.With("trace_id", hex.EncodeToString(sc.TraceID[:]), "span_id", hex.EncodeToString(sc.SpanID[:]))
	}
	return log
}

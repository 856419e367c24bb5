package telemetry

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// callRecord is the span of one host call, recorded without the SDK: ids,
// parent, times and outcome, in one allocation. It becomes an OpenTelemetry
// span only when it is exported ([callRecord.snapshot]); with a batching
// exporter that is off the call's path, in the exporter's goroutine.
type callRecord struct {
	sc, parent             trace.SpanContext
	name, tool             string
	start, end             time.Time
	callID, label, failure string
}

// startCall is StartCall with tracing on: the sampler m's provider has
// decides, as it would for a span the SDK starts, and ctx carries the
// call's span context, so that the SDK's spans started under it (the
// steps, the mod's spans) are its children.
func startCall(ctx context.Context, m *modExport, tool string) (context.Context, Span) {
	parent := trace.SpanContextFromContext(ctx)
	var tid trace.TraceID
	var sid trace.SpanID
	if parent.IsValid() {
		tid, sid = parent.TraceID(), randomIDs{}.NewSpanID(ctx, parent.TraceID())
	} else {
		tid, sid = randomIDs{}.NewIDs(ctx)
	}
	name := callName(tool)
	res := m.sampler.ShouldSample(sdktrace.SamplingParameters{ParentContext: ctx, TraceID: tid, Name: name, Kind: trace.SpanKindInternal})
	flags := parent.TraceFlags() &^ trace.FlagsSampled
	if res.Decision == sdktrace.RecordAndSample {
		flags |= trace.FlagsSampled
	}
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: flags, TraceState: res.Tracestate})
	ctx = trace.ContextWithSpanContext(ctx, sc)
	if res.Decision == sdktrace.Drop {
		return ctx, Span{}
	}
	return ctx, Span{call: &callRecord{sc: sc, parent: parent, name: name, tool: tool, start: time.Now()}}
}

// endCall ends the call's span with its outcome and hands it on; r is
// not used again.
func (r *callRecord) endCall(callID, label, failure string) {
	r.end = time.Now()
	r.callID, r.label, r.failure = callID, label, failure
	if m := modSink.Load(); m != nil {
		m.takeCall(r)
	}
}

// snapshot is the call's finished span, as the SDK would have made it:
// the host's resource, string attributes cut to the span limits' length.
func (r *callRecord) snapshot(c *modConverter) sdktrace.ReadOnlySpan {
	limit := c.limits.AttributeValueLengthLimit
	n := 1
	for _, v := range []string{r.callID, r.label, r.failure} {
		if v != "" {
			n++
		}
	}
	attrs := make([]attribute.KeyValue, 1, n)
	attrs[0] = attribute.String("gen_ai.tool.name", truncate(r.tool, limit))
	if r.callID != "" {
		attrs = append(attrs, attribute.String("modkit.call.id", truncate(r.callID, limit)))
	}
	if r.label != "" {
		attrs = append(attrs, attribute.String("modkit.call.label", truncate(r.label, limit)))
	}
	stub := tracetest.SpanStub{
		Name:                 r.name,
		SpanContext:          r.sc,
		Parent:               r.parent,
		SpanKind:             trace.SpanKindInternal,
		StartTime:            r.start,
		EndTime:              r.end,
		InstrumentationScope: instrumentation.Scope{Name: tracerName},
		Resource:             c.res,
	}
	if r.failure != "" {
		attrs = append(attrs, attribute.String("error.type", "tool_error"))
		stub.Status = sdktrace.Status{Code: codes.Error, Description: r.failure}
	}
	stub.Attributes = attrs
	return stub.Snapshot()
}

package otelbridge

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/internal/modtrace"
)

// TestNests: under a call's context, an author's OpenTelemetry span is
// recorded by the call's recorder, nested under the runtime's span, and a
// runtime span started under it nests under it in turn; the host's baggage
// reaches the author.
func TestNests(t *testing.T) {
	call := modtrace.SpanContext{TraceID: [16]byte{1}, SpanID: [8]byte{2}, Flags: 1, Baggage: "user=ada"}
	rec := modtrace.NewRecorder()
	ctx := modtrace.ContextWith(context.Background(), call, rec, true)
	if got := trace.SpanContextFromContext(ctx); got.TraceID() != call.TraceID || got.SpanID() != call.SpanID || !got.IsRemote() || !got.IsSampled() {
		t.Fatalf("OpenTelemetry reads the call's span context as %+v", got)
	}
	if v := baggage.FromContext(ctx).Member("user").Value(); v != "ada" {
		t.Errorf("baggage user = %q, want ada", v)
	}
	ctx, runtime := modtrace.Start(ctx, "runtime", "run_tool t", modtrace.KindServer)
	actx, author := otel.Tracer("author").Start(ctx, "author", trace.WithAttributes(attribute.Int("n", 4)))
	_, inner := modtrace.Start(actx, "runtime", "inner", modtrace.KindInternal)
	inner.End(time0)
	author.SetStatus(2, "")
	author.End()
	runtime.End(time0)

	spans, _ := rec.Take()
	if len(spans) != 3 {
		t.Fatalf("recorded %d spans, want 3", len(spans))
	}
	in, au, rt := spans[0], spans[1], spans[2]
	if au.Name != "author" || au.Scope != "author" || [8]byte(au.ParentSpanId) != [8]byte(rt.SpanId) || len(au.Attributes) != 1 || au.StatusCode != modtrace.StatusOK {
		t.Errorf("author span %+v, want under %x", au, rt.SpanId)
	}
	if [8]byte(in.ParentSpanId) != [8]byte(au.SpanId) {
		t.Errorf("inner span under %x, want the author's %x", in.ParentSpanId, au.SpanId)
	}
	if [8]byte(au.SpanId) != author.SpanContext().SpanID() {
		t.Errorf("author span id %x, OpenTelemetry says %s", au.SpanId, author.SpanContext().SpanID())
	}

	if _, s := otel.Tracer("author").Start(context.Background(), "outside"); s.IsRecording() {
		t.Error("a span outside any call records")
	}
}

var time0 time.Time

package modtrace

import (
	"context"
	"errors"
	"testing"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// TestRecorder: under a sampled parent, spans nest, keep their name,
// status and events, and wait for Take; past MaxBuffered they are dropped
// and counted.
func TestRecorder(t *testing.T) {
	parent := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled, Remote: true,
	})
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
	r := NewRecorder()
	ctx, outer := r.Tracer("scope").Start(ctx, "outer")
	_, inner := r.Tracer("scope").Start(ctx, "inner")
	inner.SetName("renamed")
	inner.RecordError(errors.New("boom"))
	inner.SetStatus(codes.Error, "it failed")
	inner.End()
	inner.End() // a second End records nothing
	outer.End()
	spans, dropped := r.Take()
	if len(spans) != 2 || dropped != 0 {
		t.Fatalf("got %d spans, %d dropped; want 2, 0", len(spans), dropped)
	}
	in, out := spans[0], spans[1]
	if in.Name != "renamed" || codes.Code(in.StatusCode) != codes.Error || in.StatusMessage != "it failed" || len(in.Events) != 1 || in.Events[0].Name != "exception" {
		t.Errorf("inner span: got %+v", in)
	}
	if [8]byte(out.ParentSpanId) != parent.SpanID() {
		t.Errorf("outer span's parent %x, want %s", out.ParentSpanId, parent.SpanID())
	}
	if [8]byte(in.ParentSpanId) != [8]byte(out.SpanId) || [16]byte(in.TraceId) != parent.TraceID() {
		t.Errorf("inner span's parent %x in trace %x, want %x in %s", in.ParentSpanId, in.TraceId, out.SpanId, parent.TraceID())
	}
	if spans, _ := r.Take(); len(spans) != 0 {
		t.Errorf("a second Take got %d spans, want 0", len(spans))
	}

	for range MaxBuffered + 3 {
		_, s := r.Tracer("scope").Start(ctx, "many")
		s.End()
	}
	if spans, dropped := r.Take(); len(spans) != MaxBuffered || dropped != 3 {
		t.Errorf("got %d spans, %d dropped; want %d, 3", len(spans), dropped, MaxBuffered)
	}

	if _, s := r.Tracer("scope").Start(context.Background(), "unsampled"); s.IsRecording() {
		t.Error("a span without a sampled parent records")
	}
}

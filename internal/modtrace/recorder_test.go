package modtrace

import (
	"context"
	"testing"
	"time"
)

var timeZero time.Time

// TestRecorder: under a sampled parent, spans nest, keep their name,
// status and attributes, and wait for Take; past MaxBuffered they are
// dropped and counted.
func TestRecorder(t *testing.T) {
	parent := SpanContext{TraceID: [16]byte{1}, SpanID: [8]byte{2}, Flags: 1, TraceState: "a=b"}
	r := NewRecorder()
	ctx := ContextWith(context.Background(), parent, r, true)
	ctx, outer := Start(ctx, "scope", "outer", KindServer)
	_, inner := Start(ctx, "scope", "inner", KindInternal, String("k", "v"))
	inner.SetStatus(StatusError, "it failed")
	inner.SetStatus(0, "") // unset does not replace an error
	inner.SetAttributes(Int("n", 3))
	inner.End(timeZero)
	inner.End(timeZero) // a second End records nothing
	inner.SetAttributes(Int("late", 1))
	outer.End(timeZero)

	spans, dropped := r.Take()
	if len(spans) != 2 || dropped != 0 {
		t.Fatalf("got %d spans, %d dropped; want 2, 0", len(spans), dropped)
	}
	in, out := spans[0], spans[1]
	if in.Name != "inner" || in.StatusCode != StatusError || in.StatusMessage != "it failed" || len(in.Attributes) != 2 || in.TraceState != "a=b" {
		t.Errorf("inner span: got %+v", in)
	}
	if [8]byte(out.ParentSpanId) != parent.SpanID || out.Kind != KindServer {
		t.Errorf("outer span's parent %x kind %d, want %x server", out.ParentSpanId, out.Kind, parent.SpanID)
	}
	if [8]byte(in.ParentSpanId) != [8]byte(out.SpanId) || [16]byte(in.TraceId) != parent.TraceID {
		t.Errorf("inner span's parent %x in trace %x, want %x in %x", in.ParentSpanId, in.TraceId, out.SpanId, parent.TraceID)
	}
	if in.EndUnixNano < in.StartUnixNano || in.StartUnixNano == 0 {
		t.Errorf("inner span from %d to %d", in.StartUnixNano, in.EndUnixNano)
	}
	if spans, _ := r.Take(); len(spans) != 0 {
		t.Errorf("a second Take got %d spans, want 0", len(spans))
	}
	for range MaxBuffered + 3 {
		_, s := Start(ctx, "scope", "many", KindInternal)
		s.End(timeZero)
	}
	if spans, dropped := r.Take(); len(spans) != MaxBuffered || dropped != 3 {
		t.Errorf("got %d spans, %d dropped; want %d, 3", len(spans), dropped, MaxBuffered)
	}
	unsampled := ContextWith(context.Background(), SpanContext{TraceID: [16]byte{1}, SpanID: [8]byte{2}}, r, true)
	if _, s := Start(unsampled, "scope", "unsampled", KindInternal); s.Recording() {
		t.Error("a span without a sampled parent records")
	}
}

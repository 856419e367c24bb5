package modtrace

import (
	"context"
	"strconv"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
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

// TestStartReused checks that a reused span is encoded as any other, that
// the span made from it after it went back to the pool keeps nothing of
// it, and that spans Take hands out never go back to the pool.
func TestStartReused(t *testing.T) {
	parent := SpanContext{TraceID: [16]byte{1}, SpanID: [8]byte{2}, Flags: 1}
	r := NewRecorder()
	ctx := ContextWith(context.Background(), parent, r, true)
	run := func(name string, attrs int) {
		_, s := StartReused(ctx, "scope", name, KindServer)
		for i := range attrs {
			s.SetString("k"+strconv.Itoa(i), name)
		}
		if name == "first" {
			s.SetStatus(StatusError, name)
		}
		s.End(timeZero)
	}
	decode := func(b []byte) []*pb.Span {
		t.Helper()
		var batch pb.SpanBatch
		if err := proto.Unmarshal(b, &batch); err != nil {
			t.Fatal(err)
		}
		return batch.GetSpans()
	}
	run("first", 3) // one attribute past the inline ones
	run("second", 0)
	for i, s := range decode(LaneSpans(nil, r)) {
		want, attrs, status := []string{"first", "second"}[i], []int{3, 0}[i], []string{"first", ""}[i]
		if s.GetName() != want || len(s.GetAttributes()) != attrs || s.GetStatusMessage() != status || [8]byte(s.GetParentSpanId()) != parent.SpanID {
			t.Errorf("span %d: got %v, want %s with %d attributes under %x", i, s, want, attrs, parent.SpanID)
		}
	}
	run("third", 1)
	got := decode(LaneSpans(nil, r))
	if len(got) != 1 || got[0].GetName() != "third" || len(got[0].GetAttributes()) != 1 || got[0].GetAttributes()[0].GetStringValue() != "third" || got[0].GetStatusCode() != 0 {
		t.Errorf("a span from the pool: got %v, want third with one attribute and no status", got)
	}
	run("taken", 1)
	taken, _ := r.Take()
	for _, name := range []string{"fourth", "fifth"} {
		run(name, 2)
		LaneSpans(nil, r)
	}
	if len(taken) != 1 || taken[0].GetName() != "taken" || len(taken[0].GetAttributes()) != 1 {
		t.Errorf("a span Take handed out: got %v, want it as it ended", taken)
	}
}

// TestStartReusedAllocs checks that the mod's side of a traced lane call,
// its handler's span from the pool and its spans encoded into the lane's
// reused buffer, costs one allocation: the two contexts, together.
func TestStartReusedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled values")
	}
	rec := NewRecorder()
	buf := make([]byte, 0, 1024)
	got := testing.AllocsPerRun(200, func() {
		ctx := LaneIncoming(context.Background(), rec, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "", "")
		_, s := StartReused(ctx, "scope", "run_tool echo", KindServer)
		s.SetString("gen_ai.tool.name", "echo")
		s.SetString("modkit.call.id", "call_1")
		s.End(timeZero)
		if buf = LaneSpans(buf[:0], rec); len(buf) == 0 {
			t.Fatal("no spans")
		}
	})
	if got > 1 {
		t.Errorf("got %v allocations per traced call, want 1 at most", got)
	}
}

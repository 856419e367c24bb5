package modtrace

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"

	"github.com/modkit/modkit/internal/testenv"
)

// BenchmarkTracedRPC is the mod's side of one traced call: the trace
// context read from the metadata, the handler's span, and the spans
// encoded for the trailer.
func BenchmarkTracedRPC(b *testing.B) {
	md := metadata.MD{KeyTraceparent: {"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}
	ctx := metadata.NewIncomingContext(context.Background(), md)
	rec := NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		cctx := Incoming(ctx, rec)
		_, s := Start(cctx, "scope", "run_tool echo", KindServer, String("gen_ai.tool.name", "echo"), String("modkit.call.id", "call_1"))
		s.End(time.Time{})
		if trailer(rec) == nil {
			b.Fatal("no trailer")
		}
	}
}

// BenchmarkTracedLaneCall is BenchmarkTracedRPC on the call lane: the
// trace context from the call frame, the spans encoded for the outcome.
func BenchmarkTracedLaneCall(b *testing.B) {
	rec := NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		ctx := LaneIncoming(context.Background(), rec, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "", "")
		_, s := StartReused(ctx, "scope", "run_tool echo", KindServer)
		s.SetString("gen_ai.tool.name", "echo")
		s.SetString("modkit.call.id", "call_1")
		s.End(time.Time{})
		if LaneSpans(nil, rec) == nil {
			b.Fatal("no spans")
		}
	}
}

// BenchmarkLaneSpans is the encoding of a handler's span for the lane's
// outcome frame, into a buffer the frame reuses; cpu-ns/op is the
// process's CPU, steadier than the time on a busy machine.
func BenchmarkLaneSpans(b *testing.B) {
	rec := NewRecorder()
	ctx := LaneIncoming(context.Background(), rec, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "", "")
	_, s := Start(ctx, "github.com/modkit/modkit/mod", "tools/call echo", KindServer,
		String("gen_ai.tool.name", "echo"), String("modkit.call.id", "call_0123456789abcdef"))
	s.End(time.Time{})
	span := rec.done[0]
	var holder Span
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	cpu := testenv.ProcessCPU()
	for b.Loop() {
		rec.finish(&holder, span)
		buf = LaneSpans(buf[:0], rec)
	}
	b.ReportMetric(float64(testenv.ProcessCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

package modtrace

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"
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

package telemetry

import (
	"context"
	"sync/atomic"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modtrace"
	"github.com/modkit/modkit/internal/protocol/pb"
)

// BenchmarkHostSide is the host's share of one traced call, as
// traced_vs_call runs it, without the crossing: the call's span started,
// given its outcome and ended, the mod's span batch taken in, and both
// exported in batches to an exporter that counts them.
func BenchmarkHostSide(b *testing.B) {
	ctx := context.Background()
	exp := &countingExporter{}
	// A queue deep enough that the loop, faster than any call, drops none.
	env := map[string]string{"OTEL_BSP_MAX_QUEUE_SIZE": "10000000"}
	tel, err := Setup(ctx, &Options{Batched: exp, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		b.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	batch := modBatch1(b)
	sink := ModSpans("echomod")
	b.ReportAllocs()
	cpu := processCPU(b)
	for b.Loop() {
		_, span := StartCall(ctx, "echo")
		span.EndCall("echo", "call_42", "", "")
		sink(batch)
	}
	if err := tel.Shutdown(ctx); err != nil {
		b.Fatal(err)
	}
	// The process's CPU, the exporting goroutine's included: steadier on
	// a busy machine than the time per call.
	b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
	if got := exp.spans.Load(); got < int64(2*b.N) {
		b.Fatalf("exported %d spans, want at least %d", got, 2*b.N)
	}
}

// modBatch1 is the batch the echo mod sends back for one call: its
// run_tool span.
func modBatch1(tb testing.TB) string {
	s := &pb.Span{
		TraceId: []byte{0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48, 0xeb, 0x21, 0x1c, 0x80, 0x31, 0x9c},
		SpanId:  []byte{1, 2, 3, 4, 5, 6, 7, 8}, ParentSpanId: []byte{0xb7, 0xad, 0x6b, 0x71, 0x69, 0x20, 0x33, 0x31},
		Name: "run_tool echo", Kind: modtrace.KindServer, StartUnixNano: 1_700_000_000_000_000_000, EndUnixNano: 1_700_000_000_000_050_000,
		Scope:      "github.com/modkit/modkit/sdk",
		Attributes: []*pb.SpanAttribute{modtrace.String("gen_ai.tool.name", "echo"), modtrace.String("modkit.call.id", "call_42")},
	}
	raw, err := proto.Marshal(&pb.SpanBatch{Spans: []*pb.Span{s}})
	if err != nil {
		tb.Fatal(err)
	}
	return string(raw)
}

// countingExporter counts the spans it is given, and keeps none.
type countingExporter struct{ spans atomic.Int64 }

func (c *countingExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	c.spans.Add(int64(len(spans)))
	return nil
}

func (c *countingExporter) Shutdown(context.Context) error { return nil }

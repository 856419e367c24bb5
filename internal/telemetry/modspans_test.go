package telemetry

import (
	"context"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/baggage"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modtrace"
	"github.com/modkit/modkit/internal/protocol/pb"
)

// TestOutgoingIncoming: what the host's side puts in the metadata, the
// mod's side (internal/modtrace) reads back as the same span context and
// baggage.
func TestOutgoingIncoming(t *testing.T) {
	ts, err := trace.ParseTraceState("vendor=value")
	if err != nil {
		t.Fatal(err)
	}
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID:    trace.TraceID{0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48, 0xeb, 0x21, 0x1c, 0x80, 0x31, 0x9c},
		SpanID:     trace.SpanID{0xb7, 0xad, 0x6b, 0x71, 0x69, 0x20, 0x33, 0x31},
		TraceFlags: trace.FlagsSampled, TraceState: ts,
	})
	m, _ := baggage.NewMember("user", "ada")
	b, _ := baggage.New(m)
	ctx := baggage.ContextWithBaggage(trace.ContextWithSpanContext(context.Background(), sc), b)
	out, ok := outgoing(ctx)
	if !ok {
		t.Fatal("a sampled span context was not sent")
	}
	md, _ := metadata.FromOutgoingContext(out)
	if got, want := md.Get("traceparent"), "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"; len(got) != 1 || got[0] != want {
		t.Errorf("traceparent %q, want %q", got, want)
	}
	got, _, ok := modtrace.FromContext(modtrace.Incoming(metadata.NewIncomingContext(context.Background(), md), modtrace.NewRecorder()))
	if !ok || got.TraceID != sc.TraceID() || got.SpanID != sc.SpanID() || !got.Sampled() || got.TraceState != "vendor=value" || got.Baggage != "user=ada" {
		t.Errorf("mod side read %+v, want %+v", got, sc)
	}
	if _, ok := outgoing(context.Background()); ok {
		t.Error("a context without a span sent a trace context")
	}
}

// TestModSpansReplayed: a mod's spans are exported by the host under
// their own ids and parent, with the mod named: at once with a syncing
// exporter, at the batch's export with a batching one.
func TestModSpansReplayed(t *testing.T) {
	ctx := context.Background()
	span := &pb.Span{TraceId: make([]byte, 16), SpanId: []byte{1, 2, 3, 4, 5, 6, 7, 8}, ParentSpanId: []byte{8, 7, 6, 5, 4, 3, 2, 1},
		Name: "run_tool echo", Kind: modtrace.KindServer, StartUnixNano: 1, EndUnixNano: 2, Scope: "mod",
		Attributes: []*pb.SpanAttribute{modtrace.String("gen_ai.tool.name", "echo")}, StatusCode: modtrace.StatusError, StatusMessage: "failed"}
	span.TraceId[0] = 9
	raw, err := proto.Marshal(&pb.SpanBatch{Spans: []*pb.Span{span}})
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, spans tracetest.SpanStubs) {
		t.Helper()
		if len(spans) != 1 {
			t.Fatalf("exported %d spans, want 1", len(spans))
		}
		s := spans[0]
		mod := ""
		for _, kv := range s.Attributes {
			if kv.Key == "modkit.mod" {
				mod = kv.Value.AsString()
			}
		}
		if s.Name != "run_tool echo" || [8]byte(s.SpanContext.SpanID()) != [8]byte(span.SpanId) || [8]byte(s.Parent.SpanID()) != [8]byte(span.ParentSpanId) || mod != "echomod" || s.Status.Description != "failed" {
			t.Errorf("exported %+v", s)
		}
	}
	t.Run("sync", func(t *testing.T) {
		exp := tracing(t, nil)
		ModSpans("echomod")(string(raw))
		check(t, exp.GetSpans())
	})
	t.Run("batched", func(t *testing.T) {
		exp := &keepingExporter{}
		tel, err := Setup(ctx, &Options{Batched: exp, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		ModSpans("echomod")(string(raw))
		if err := tel.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		check(t, tracetest.SpanStubsFromReadOnlySpans(exp.spans))
	})
}

// keepingExporter keeps the spans it is given.
type keepingExporter struct {
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

func (k *keepingExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.spans = append(k.spans, spans...)
	return nil
}

func (k *keepingExporter) Shutdown(context.Context) error { return nil }

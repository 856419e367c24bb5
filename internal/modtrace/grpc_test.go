package modtrace

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/metadata"
)

// TestOutgoingIncoming: what the host's side puts in the metadata, the
// mod's side reads back as the same span context and baggage.
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
	in := incoming(metadata.NewIncomingContext(context.Background(), md))
	got := trace.SpanContextFromContext(in)
	if got.TraceID() != sc.TraceID() || got.SpanID() != sc.SpanID() || !got.IsSampled() || !got.IsRemote() || got.TraceState().String() != "vendor=value" {
		t.Errorf("mod side read %+v, want %+v remote", got, sc)
	}
	if v := baggage.FromContext(in).Member("user").Value(); v != "ada" {
		t.Errorf("baggage user = %q, want ada", v)
	}
	if _, ok := outgoing(context.Background()); ok {
		t.Error("a context without a span sent a trace context")
	}
}

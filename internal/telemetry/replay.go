package telemetry

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/internal/protocol/pb"
)

type spanIDKey struct{}

// withSpanID returns ctx asking the host's ID generator to give the next
// span id: how a replayed span keeps the id its mod gave it.
func withSpanID(ctx context.Context, id trace.SpanID) context.Context {
	return context.WithValue(ctx, spanIDKey{}, id)
}

// spanIDFrom returns the span id withSpanID put in ctx.
func spanIDFrom(ctx context.Context) (trace.SpanID, bool) {
	id, ok := ctx.Value(spanIDKey{}).(trace.SpanID)
	return id, ok
}

// replay starts and ends each span again through tp, with its times, kind,
// attributes, events and status, under its parent and, when tp's ID
// generator honours withSpanID, with its own id. mod names the mod, as the
// attribute modkit.mod.
func replay(tp trace.TracerProvider, mod string, spans []*pb.Span) {
	for _, s := range spans {
		var tid trace.TraceID
		var parent, id trace.SpanID
		if copy(tid[:], s.TraceId) != len(tid) || copy(parent[:], s.ParentSpanId) != len(parent) || copy(id[:], s.SpanId) != len(id) {
			continue
		}
		ts, _ := trace.ParseTraceState(s.TraceState)
		ctx := trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: tid, SpanID: parent, TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true,
		}))
		attrs := make([]attribute.KeyValue, 0, len(s.Attributes)+1)
		attrs = append(attrs, attribute.String("modkit.mod", mod))
		attrs = appendFromWire(attrs, s.Attributes)
		scope := s.Scope
		if scope == "" {
			scope = "mod " + mod
		}
		_, span := tp.Tracer(scope).Start(withSpanID(ctx, id), s.Name,
			trace.WithTimestamp(unixNano(s.StartUnixNano)), trace.WithSpanKind(trace.SpanKind(s.Kind)), trace.WithAttributes(attrs...))
		for _, e := range s.Events {
			span.AddEvent(e.Name, trace.WithTimestamp(unixNano(e.TimeUnixNano)), trace.WithAttributes(appendFromWire(nil, e.Attributes)...))
		}
		if s.StatusCode != 0 {
			span.SetStatus(codes.Code(s.StatusCode), s.StatusMessage)
		}
		span.End(trace.WithTimestamp(unixNano(s.EndUnixNano)))
	}
}

func unixNano(n uint64) time.Time { return time.Unix(0, int64(n)) }

func appendFromWire(kvs []attribute.KeyValue, as []*pb.SpanAttribute) []attribute.KeyValue {
	for _, a := range as {
		switch v := a.Value.(type) {
		case *pb.SpanAttribute_BoolValue:
			kvs = append(kvs, attribute.Bool(a.Key, v.BoolValue))
		case *pb.SpanAttribute_IntValue:
			kvs = append(kvs, attribute.Int64(a.Key, v.IntValue))
		case *pb.SpanAttribute_DoubleValue:
			kvs = append(kvs, attribute.Float64(a.Key, v.DoubleValue))
		case *pb.SpanAttribute_StringValue:
			kvs = append(kvs, attribute.String(a.Key, v.StringValue))
		}
	}
	return kvs
}

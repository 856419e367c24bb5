package telemetry

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modtrace"
	"github.com/modkit/modkit/internal/protocol/pb"
)

// Propagator is how the trace context travels in _meta, HTTP headers and
// gRPC metadata: W3C trace context and baggage.
var Propagator propagation.TextMapPropagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// ModDialOptions are the host's dial options for the mod named mod: they
// carry the trace context of a traced call into the mod (internal/modtrace
// reads it there) and export the spans the mod sends back.
func ModDialOptions(mod string) []grpc.DialOption {
	sink := ModSpans(mod)
	return []grpc.DialOption{grpc.WithChainUnaryInterceptor(clientUnary(sink)),
		grpc.WithChainStreamInterceptor(clientStream(sink))}
}

// ModSpans returns what exports the spans a mod sent back (a SpanBatch,
// encoded), under the mod's id. With a batching exporter they are decoded
// and replayed when the batch is exported, off the call's path; otherwise
// at once.
func ModSpans(mod string) func(batch string) {
	return func(batch string) {
		if !tracingOn.Load() {
			return
		}
		if b := modBatcher.Load(); b != nil && b.later(mod, batch) {
			return
		}
		replayBatch(mod, batch)
	}
}

// modBatcher is the batcher of the provider Setup made, when it batches.
var modBatcher atomic.Pointer[batcher]

// replayBatch decodes a mod's encoded SpanBatch and replays its spans
// through the process's TracerProvider.
func replayBatch(mod, batch string) {
	var spans pb.SpanBatch
	if proto.Unmarshal([]byte(batch), &spans) == nil {
		replay(otel.GetTracerProvider(), mod, spans.Spans)
	}
}

// outgoing returns ctx with its trace context in the outgoing metadata,
// and whether it has one to send.
func outgoing(ctx context.Context) (context.Context, bool) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsSampled() {
		return ctx, false
	}
	kv := make([]string, 0, 6)
	kv = append(kv, modtrace.KeyTraceparent, modtrace.SpanContext{TraceID: sc.TraceID(), SpanID: sc.SpanID(), Flags: byte(sc.TraceFlags())}.Traceparent())
	if ts := sc.TraceState(); ts.Len() > 0 {
		kv = append(kv, modtrace.KeyTracestate, ts.String())
	}
	if b := baggage.FromContext(ctx); b.Len() > 0 {
		kv = append(kv, modtrace.KeyBaggage, b.String())
	}
	return metadata.AppendToOutgoingContext(ctx, kv...), true
}

// clientUnary is the host's unary interceptor: a request made under a
// sampled span carries its trace context, and the spans the mod sends back
// go to sink.
func clientUnary(sink func(string)) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx, traced := outgoing(ctx)
		if !traced {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		var md metadata.MD
		err := invoker(ctx, method, req, reply, cc, append(opts, grpc.Trailer(&md))...)
		deliver(md, sink)
		return err
	}
}

// clientStream is clientUnary for streaming RPCs: the spans arrive when the
// stream ends.
func clientStream(sink func(string)) grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		ctx, traced := outgoing(ctx)
		cs, err := streamer(ctx, desc, cc, method, opts...)
		if !traced || err != nil {
			return cs, err
		}
		return &tracedClientStream{ClientStream: cs, sink: sink}, nil
	}
}

type tracedClientStream struct {
	grpc.ClientStream
	sink func(string)
	once sync.Once
}

func (s *tracedClientStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err != nil {
		// The trailer is there once the stream has ended.
		s.once.Do(func() {
			if err == io.EOF || s.Context().Err() == nil {
				deliver(s.Trailer(), s.sink)
			}
		})
	}
	return err
}

func deliver(md metadata.MD, sink func(string)) {
	if v := md[modtrace.TrailerKey]; len(v) > 0 && sink != nil {
		sink(v[0])
	}
}

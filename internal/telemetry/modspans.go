package telemetry

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/modkit/modkit/internal/modtrace"
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
// when the batch is exported, off the call's path; otherwise at once.
func ModSpans(mod string) func(batch string) {
	return func(batch string) {
		if !tracingOn.Load() {
			return
		}
		if m := modSink.Load(); m != nil {
			m.take(mod, batch)
		}
	}
}

// modExport is where the spans recorded outside the SDK go, the mods'
// and the host's calls': what Setup made.
type modExport struct {
	conv modConverter
	// sampler is the provider's: it samples the calls' spans too.
	sampler sdktrace.Sampler
	// batcher, when it is the only processor, keeps the mods' batches
	// and decodes them when it exports.
	batcher *batcher
	// procs are the provider's processors, which end the spans decoded
	// at once.
	procs []sdktrace.SpanProcessor
}

// modSink is the process's modExport while Setup's tracing is on.
var modSink atomic.Pointer[modExport]

// take exports a mod's batch: later with the batcher, else now.
func (m *modExport) take(mod, batch string) {
	if m.batcher != nil && m.batcher.later(mod, batch) {
		return
	}
	spans := m.conv.appendSpans(nil, mod, batch)
	for _, p := range m.procs {
		for _, s := range spans {
			p.OnEnd(s)
		}
	}
}

// takeCall exports a call's span: later with the batcher, else now. The
// batcher keeps only sampled spans, as the processors do.
func (m *modExport) takeCall(r *callRecord) {
	if m.batcher != nil {
		if r.sc.IsSampled() {
			m.batcher.laterCall(r)
		}
		return
	}
	s := r.finish(&m.conv, nil)
	for _, p := range m.procs {
		p.OnEnd(s)
	}
}

// outgoing returns ctx with its trace context in the outgoing metadata,
// and whether it has one to send.
func outgoing(ctx context.Context) (context.Context, bool) {
	tp, sc, ok := sampledParent(ctx)
	if !ok {
		return ctx, false
	}
	kv := make([]string, 0, 6)
	kv = append(kv, modtrace.KeyTraceparent, tp)
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

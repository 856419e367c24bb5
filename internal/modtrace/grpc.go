package modtrace

import (
	"context"
	"encoding/hex"
	"io"
	"sync"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// TrailerKey is the binary trailer that carries a mod's finished spans.
const TrailerKey = "modkit-spans-bin"

// Propagator is how the trace context travels in gRPC metadata: W3C trace
// context and baggage.
var Propagator propagation.TextMapPropagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// carrier is gRPC metadata as a propagation carrier.
type carrier metadata.MD

func (c carrier) Get(key string) string {
	if v := metadata.MD(c).Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

func (c carrier) Set(key, value string) { metadata.MD(c).Set(key, value) }

func (c carrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}

// outgoing returns ctx with its trace context in the outgoing metadata,
// and whether it has one to send.
func outgoing(ctx context.Context) (context.Context, bool) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsSampled() {
		return ctx, false
	}
	kv := make([]string, 0, 6)
	kv = append(kv, "traceparent", traceparent(sc))
	if ts := sc.TraceState(); ts.Len() > 0 {
		kv = append(kv, "tracestate", ts.String())
	}
	if b := baggage.FromContext(ctx); b.Len() > 0 {
		kv = append(kv, "baggage", b.String())
	}
	return metadata.AppendToOutgoingContext(ctx, kv...), true
}

// traceparent is the W3C traceparent header of sc.
func traceparent(sc trace.SpanContext) string {
	var b [55]byte
	tid, sid := sc.TraceID(), sc.SpanID()
	copy(b[:], "00-")
	hex.Encode(b[3:35], tid[:])
	b[35] = '-'
	hex.Encode(b[36:52], sid[:])
	b[52] = '-'
	hex.Encode(b[53:55], []byte{byte(sc.TraceFlags())})
	return string(b[:])
}

// incoming returns ctx with the trace context its request carries.
func incoming(ctx context.Context) context.Context {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok || len(md.Get("traceparent")) == 0 {
		return ctx
	}
	return Propagator.Extract(ctx, carrier(md))
}

// trailer returns r's finished spans as a trailer, or nil when it has none.
func trailer(r *Recorder) metadata.MD {
	spans, _ := r.Take()
	if len(spans) == 0 {
		return nil
	}
	b, err := proto.Marshal(&pb.SpanBatch{Spans: spans})
	if err != nil {
		return nil
	}
	return metadata.MD{TrailerKey: []string{string(b)}}
}

// ServerUnary is the mod's unary interceptor: the handler runs under the
// request's trace context, and the spans r finished go back in the trailer.
func ServerUnary(r *Recorder) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(incoming(ctx), req)
		if md := trailer(r); md != nil {
			_ = grpc.SetTrailer(ctx, md)
		}
		return resp, err
	}
}

// ServerStream is ServerUnary for streaming RPCs.
func ServerStream(r *Recorder) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx := incoming(ss.Context())
		if ctx != ss.Context() {
			ss = &tracedServerStream{ServerStream: ss, ctx: ctx}
		}
		err := handler(srv, ss)
		if md := trailer(r); md != nil {
			ss.SetTrailer(md)
		}
		return err
	}
}

type tracedServerStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *tracedServerStream) Context() context.Context { return s.ctx }

// A Sink receives the spans a mod sent back.
type Sink func(spans []*pb.Span)

// DialOptions are the host's dial options that carry trace context into a
// mod and hand the spans it sends back to sink.
func DialOptions(sink Sink) []grpc.DialOption {
	return []grpc.DialOption{grpc.WithChainUnaryInterceptor(ClientUnary(sink)),
		grpc.WithChainStreamInterceptor(ClientStream(sink))}
}

// ClientUnary is the host's unary interceptor: a request made under a
// sampled span carries its trace context, and the spans the mod sends back
// go to sink.
func ClientUnary(sink Sink) grpc.UnaryClientInterceptor {
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

// ClientStream is ClientUnary for streaming RPCs: the spans arrive when the
// stream ends.
func ClientStream(sink Sink) grpc.StreamClientInterceptor {
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
	sink Sink
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

func deliver(md metadata.MD, sink Sink) {
	v := md.Get(TrailerKey)
	if len(v) == 0 || sink == nil {
		return
	}
	var batch pb.SpanBatch
	if proto.Unmarshal([]byte(v[0]), &batch) != nil {
		return
	}
	sink(batch.Spans)
}

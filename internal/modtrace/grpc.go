package modtrace

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// TrailerKey is the binary trailer that carries a mod's finished spans.
const TrailerKey = "modkit-spans-bin"

// The metadata keys of the trace context, as W3C names its headers.
const (
	KeyTraceparent = "traceparent"
	KeyTracestate  = "tracestate"
	KeyBaggage     = "baggage"
)

// Incoming returns ctx with the trace context its request's metadata
// carries, its spans recorded by rec; ctx itself when it carries none.
func Incoming(ctx context.Context, rec *Recorder) context.Context {
	tp := metadata.ValueFromIncomingContext(ctx, KeyTraceparent)
	if len(tp) == 0 {
		return ctx
	}
	sc, ok := ParseTraceparent(tp[0])
	if !ok {
		return ctx
	}
	if v := metadata.ValueFromIncomingContext(ctx, KeyTracestate); len(v) > 0 {
		sc.TraceState = v[0]
	}
	if v := metadata.ValueFromIncomingContext(ctx, KeyBaggage); len(v) > 0 {
		sc.Baggage = v[0]
	}
	return remoteWith(ctx, sc, rec)
}

// trailer returns r's finished spans as a trailer, or nil when it has none.
func trailer(r *Recorder) metadata.MD {
	b := r.encoded()
	if b == nil {
		return nil
	}
	return metadata.MD{TrailerKey: []string{string(b)}}
}

// ServerUnary is the mod's unary interceptor: the handler runs under the
// request's trace context, and the spans r finished go back in the trailer.
func ServerUnary(r *Recorder) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(Incoming(ctx, r), req)
		if md := trailer(r); md != nil {
			_ = grpc.SetTrailer(ctx, md)
		}
		return resp, err
	}
}

// ServerStream is ServerUnary for streaming RPCs.
func ServerStream(r *Recorder) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx := Incoming(ss.Context(), r)
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

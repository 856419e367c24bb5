package modtrace

import (
	"context"
)

// LaneIncoming returns ctx with the trace context a call lane's call frame
// carries, its spans recorded by r; ctx itself when traceparent does not
// parse. It is [Incoming] for the call lane, which carries no gRPC
// metadata.
func LaneIncoming(ctx context.Context, r *Recorder, traceparent, tracestate, baggage string) context.Context {
	sc, ok := ParseTraceparent(traceparent)
	if !ok {
		return ctx
	}
	sc.TraceState, sc.Baggage = tracestate, baggage
	return remoteWith(ctx, sc, r)
}

// LaneSpans appends the spans r finished to dst, encoded as a SpanBatch
// for a call lane's outcome frame; dst as it was when r has none.
func LaneSpans(dst []byte, r *Recorder) []byte { return r.appendEncoded(dst) }

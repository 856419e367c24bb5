package modtrace

import (
	"context"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
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
	return ContextWith(ctx, sc, r, true)
}

// LaneSpans returns the spans r finished, encoded as a SpanBatch for a call
// lane's outcome frame, or nil when it has none.
func LaneSpans(r *Recorder) []byte {
	if !r.pending() {
		return nil
	}
	spans, _ := r.Take()
	if len(spans) == 0 {
		return nil
	}
	b, err := proto.Marshal(&pb.SpanBatch{Spans: spans})
	if err != nil {
		return nil
	}
	return b
}

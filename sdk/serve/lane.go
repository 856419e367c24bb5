package serve

import (
	"context"
	"net"

	"github.com/modkit/modkit/internal/modtrace"
	"github.com/modkit/modkit/internal/protocol"
)

// openLane returns the server of the call lane the host handed the mod,
// and the lane's connection; nil when the host handed none. Calls on the
// lane are tracked and traced as the gRPC interceptors do for calls over
// gRPC.
func openLane(hs *handlers, spans *modtrace.Recorder) (*protocol.LaneServer, net.Conn, error) {
	conn, err := protocol.OpenLane()
	if conn == nil || err != nil {
		return nil, nil, err
	}
	return &protocol.LaneServer{
		MaxMessageBytes: maxMessageBytes(),
		Begin:           hs.begin,
		Track:           hs.beginLane,
		Trace: func(ctx context.Context, traceparent, tracestate, baggage string) context.Context {
			return modtrace.LaneIncoming(ctx, spans, traceparent, tracestate, baggage)
		},
		Spans: func(dst []byte) []byte { return modtrace.LaneSpans(dst, spans) },
	}, conn, nil
}

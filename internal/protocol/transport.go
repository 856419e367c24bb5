package protocol

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modapi"
)

// fromWire turns a gRPC failure into a *modapi.TransportError; other
// errors, and nil, pass through. sent is the request, whose size tells a
// request over maxSend bytes from a response over the limit: both come back
// as ResourceExhausted.
func fromWire(err error, sent proto.Message, maxSend int) error {
	s, ok := status.FromError(err)
	if !ok || err == nil {
		return err
	}
	te := &modapi.TransportError{Kind: modapi.TransportOther, Msg: s.Message(), Err: err}
	switch s.Code() {
	case codes.Unavailable, codes.Canceled, codes.Internal, codes.Unknown:
		te.Kind = modapi.TransportBroken
	case codes.DeadlineExceeded:
		te.Kind = modapi.TransportDeadline
	case codes.ResourceExhausted:
		te.Kind = modapi.TransportResponseTooLarge
		if sent != nil && maxSend > 0 && proto.Size(sent) > maxSend {
			te.Kind = modapi.TransportRequestTooLarge
		}
	}
	return te
}

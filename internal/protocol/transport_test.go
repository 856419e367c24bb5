package protocol

import (
	"context"
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
)

func TestFromWire(t *testing.T) {
	t.Parallel()
	small := &pb.CheckInputRequest{Tool: "t"}
	big := &pb.CheckInputRequest{Tool: "t", Input: []byte(strings.Repeat("x", 100))}
	plain := errors.New("not from the wire")
	tests := []struct {
		name string
		err  error
		sent *pb.CheckInputRequest
		want modapi.TransportKind
	}{
		{"unavailable", status.Error(codes.Unavailable, "connection refused"), small, modapi.TransportBroken},
		{"canceled", status.Error(codes.Canceled, "stream reset"), small, modapi.TransportBroken},
		{"internal", status.Error(codes.Internal, "boom"), small, modapi.TransportBroken},
		{"unknown", status.Error(codes.Unknown, "eof"), small, modapi.TransportBroken},
		{"deadline", status.Error(codes.DeadlineExceeded, "deadline"), small, modapi.TransportDeadline},
		{"request too large", status.Error(codes.ResourceExhausted, "too big"), big, modapi.TransportRequestTooLarge},
		{"response too large", status.Error(codes.ResourceExhausted, "too big"), small, modapi.TransportResponseTooLarge},
		{"other", status.Error(codes.PermissionDenied, "no"), small, modapi.TransportOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := fromWire(tt.err, tt.sent, 50)
			te := modapi.AsTransport(err)
			if te == nil {
				t.Fatalf("got %v, want a *modapi.TransportError", err)
			}
			if te.Kind != tt.want {
				t.Errorf("got kind %d, want %d", te.Kind, tt.want)
			}
			if te.Msg != status.Convert(tt.err).Message() {
				t.Errorf("got message %q, want the status message", te.Msg)
			}
			if err.Error() != tt.err.Error() || !errors.Is(err, tt.err) {
				t.Errorf("got %v, want it to read and unwrap as %v", err, tt.err)
			}
		})
	}
	if err := fromWire(plain, small, 50); err != plain {
		t.Errorf("plain error: got %v, want it unchanged", err)
	}
	if err := fromWire(nil, small, 50); err != nil {
		t.Errorf("nil: got %v, want nil", err)
	}
	if err := fromWire(context.Canceled, small, 50); modapi.AsTransport(err) != nil {
		t.Errorf("context.Canceled: got %v, want it unchanged", err)
	}
}

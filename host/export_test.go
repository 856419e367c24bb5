package host

import (
	"context"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// BareUnary returns a function making one bare unary gRPC round trip to the
// running process of mod id, starting it first: the baseline a host call is
// measured against.
func BareUnary(h *Host, id string) (func(context.Context) error, error) {
	for _, m := range h.mods {
		if m.man.ID != id {
			continue
		}
		p, err := m.get()
		if err != nil {
			return nil, err
		}
		req := &pb.ActivateRequest{}
		return func(ctx context.Context) error {
			_, err := p.rpc.Activate(ctx, req)
			return err
		}, nil
	}
	return nil, ErrUnknownTool
}

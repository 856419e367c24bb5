package serve

import (
	"context"
	"net"

	"github.com/modkit/modkit/sdk"
)

// ServeTest serves g in the current process for tests: addr receives the
// socket's address, and serving ends when ctx does or the client shuts the
// server down.
func ServeTest(ctx context.Context, g *sdk.Generated, opts *Options, addr chan<- net.Addr) error {
	return serve(g, opts, &inProcess{Ctx: ctx, Addr: addr})
}

package modtrace

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// TestUntracedAllocatesNothing: a request under no sampled span passes the
// host's interceptor without an allocation, and the recorder's tracer
// starts no span.
func TestUntracedAllocatesNothing(t *testing.T) {
	ctx := context.Background()
	unary := ClientUnary(func([]*pb.Span) {})
	invoker := func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error { return nil }
	tr := NewRecorder().Tracer("t")
	cases := map[string]func(){
		"ClientUnary": func() { unary(ctx, "/m", nil, nil, nil, invoker) },
		"Start":       func() { _, s := tr.Start(ctx, "span"); s.End() },
	}
	for name, f := range cases {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times untraced, want 0", name, n)
		}
	}
}

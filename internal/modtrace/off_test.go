package modtrace

import (
	"context"
	"testing"

	"google.golang.org/grpc/metadata"
)

// TestUntracedAllocatesNothing: a request that carries no trace context
// passes Incoming without an allocation, and Start starts no span.
func TestUntracedAllocatesNothing(t *testing.T) {
	ctx := metadata.NewIncomingContext(context.Background(), metadata.MD{"x": {"y"}})
	rec := NewRecorder()
	cases := map[string]func(){
		"Incoming": func() { Incoming(ctx, rec) },
		"Start":    func() { _, s := Start(ctx, "scope", "span", KindInternal); s.SetAttributes(); s.End(timeZero) },
		"Traced":   func() { Traced(ctx) },
		"trailer":  func() { trailer(rec) },
	}
	for name, f := range cases {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times untraced, want 0", name, n)
		}
	}
	if _, s := Start(ctx, "scope", "span", KindInternal); s != nil {
		t.Error("an untraced context started a span")
	}
}

package serve_test

import (
	"context"
	"testing"

	"github.com/modkit/modkit/internal/protocol/pb"
)

func BenchmarkActivate(b *testing.B) {
	c := start(b, testGenerated)
	ctx := context.Background()
	req := &pb.ActivateRequest{}
	for b.Loop() {
		if _, err := c.Activate(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCallToolOnce(b *testing.B) {
	c := start(b, testGenerated)
	ctx := context.Background()
	req := &pb.CallToolRequest{Tool: "t_count", Input: []byte(`{"n":0}`), CallId: "b", Session: &pb.Session{Id: "s"}}
	for b.Loop() {
		if _, err := c.CallToolOnce(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

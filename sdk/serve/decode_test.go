package serve_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// TestDecodingIsPartOfTheCall checks that decoding a call's input counts as
// the call running, so that the host's grace kill covers a slow decode, and
// that a call cancelled while decoding never reaches its handler.
func TestDecodingIsPartOfTheCall(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var ran atomic.Bool
	g := &sdk.Generated{
		Mod: sdk.DefineMod(sdk.Mod{
			Metadata: sdk.Metadata{ID: "d"},
			AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[In]{
				Name: "d_slow", Description: "Decodes slowly.", Activity: "Decoding…",
				Run: func(*sdk.ToolContext, In) (sdk.Result, error) {
					ran.Store(true)
					return sdk.Text("ran"), nil
				},
			}}},
		}),
		Manifest: []byte(`{"id":"d"}`),
		Inputs: map[string]sdk.InputDecoder{"d_slow": func(data []byte) (any, error) {
			close(entered)
			<-release
			var in In
			return in, json.Unmarshal(data, &in)
		}},
	}
	c := start(t, g)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.CallToolOnce(ctx, &pb.CallToolRequest{Tool: "d_slow", Input: []byte(`{"n":1}`), CallId: "d1"})
		done <- err
	}()
	<-entered
	cancel()
	<-done
	r, err := c.CallRunning(context.Background(), &pb.CallRunningRequest{CallId: "d1"})
	if err != nil || !r.GetRunning() {
		t.Fatalf("CallRunning while decoding after cancel: got %v, %v; want running", r, err)
	}
	close(release)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		r, err := c.CallRunning(context.Background(), &pb.CallRunningRequest{CallId: "d1"})
		if err != nil {
			t.Fatal(err)
		}
		if !r.GetRunning() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the call still runs a minute after its decoding ended")
		}
	}
	if ran.Load() {
		t.Error("the handler ran after the call was cancelled while decoding")
	}
}

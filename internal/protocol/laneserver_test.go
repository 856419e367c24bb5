package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

// A call that blocks, without activity, still has its cancel read, and a
// call made meanwhile still runs.
func TestLaneCallBlocks(t *testing.T) {
	t.Parallel()
	started, sawDone := make(chan struct{}), make(chan struct{})
	srv := &LaneServer{Impl: laneMod{call: func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		if string(req.Input) != `"block"` {
			return echo(ctx, req)
		}
		close(started)
		<-ctx.Done()
		close(sawDone)
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCancelled}}, nil
	}}}
	c := newLane(t, srv, LaneOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, &modapi.CallRequest{Tool: "t", Input: json.RawMessage(`"block"`)})
		done <- err
	}()
	<-started
	resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage("2")})
	if err != nil || resp.Outcome.Text != "2" || len(resp.Activity) != 2 {
		t.Fatalf("call while another blocks: got %+v, %v; want outcome 2 with 2 updates", resp, err)
	}
	cancel()
	<-sawDone
	if err := <-done; modapi.AsTransport(err) == nil {
		t.Errorf("cancelled call: got %v, want a transport error", err)
	}
}

// Many calls at once, some cancelled while they run, others quick: the
// frames of each interleave on the lane; each call gets its own outcome.
func TestLaneManyCallsInterleaved(t *testing.T) {
	t.Parallel()
	srv := &LaneServer{Impl: laneMod{call: func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		if string(req.Input) == `"wait"` {
			<-ctx.Done()
			return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCancelled}}, nil
		}
		return echo(ctx, req)
	}}}
	c := newLane(t, srv, LaneOptions{})
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			if i%4 == 0 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%3)*time.Millisecond)
				defer cancel()
				_, err := c.CallTool(ctx, &modapi.CallRequest{Tool: "t", Input: json.RawMessage(`"wait"`)})
				if modapi.AsTransport(err) == nil {
					t.Errorf("call %d, cancelled: got %v, want a transport error", i, err)
				}
				return
			}
			for j := range 20 {
				in := fmt.Sprint((i + j) % 3)
				resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage(in), OnActivity: func(sdk.ActivityUpdate) {}})
				if err != nil || resp.Outcome.Text != in {
					t.Errorf("call %d.%d: got %+v, %v; want outcome %s", i, j, resp, err, in)
					return
				}
			}
		})
	}
	wg.Wait()
	// A cancelled call's handler ends after its caller returned.
	for deadline := time.Now().Add(10 * time.Second); srv.anyRunning(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("calls still running 10s after all ended")
		}
	}
}

// Close ends Serve while a call still blocks, ignoring its cancelled
// context.
func TestLaneCloseWhileCallBlocks(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	srv := &LaneServer{MaxMessageBytes: 1 << 20, Impl: laneMod{call: func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		close(started)
		<-release
		return echo(ctx, req)
	}}}
	a, b := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(b) }()
	c := NewLaneClient(&GRPCClient{}, a, LaneOptions{MaxMessageBytes: 1 << 20})
	defer c.Close()
	go c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage("0")})
	<-started
	srv.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: got %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after Close")
	}
}

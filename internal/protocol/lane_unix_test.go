//go:build unix

package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

// socketLane returns a client whose calls srv serves over a real call
// lane, a socketpair.
func socketLane(tb testing.TB, srv *LaneServer) *LaneClient {
	tb.Helper()
	host, child, err := NewLanePair()
	if err != nil {
		tb.Fatal(err)
	}
	hc, err := LaneConn(host)
	if err != nil {
		tb.Fatal(err)
	}
	mc, err := LaneConn(child)
	if err != nil {
		tb.Fatal(err)
	}
	srv.MaxMessageBytes = 1 << 20
	go srv.Serve(mc)
	c := NewLaneClient(&GRPCClient{}, hc, LaneOptions{MaxMessageBytes: 1 << 20})
	tb.Cleanup(func() {
		c.Close()
		srv.Close()
	})
	return c
}

func TestSocketLane(t *testing.T) {
	t.Parallel()
	c := socketLane(t, &LaneServer{Impl: laneMod{call: echo}})
	resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage("3")})
	if err != nil || resp.Outcome.Text != "3" || len(resp.Activity) != 3 {
		t.Fatalf("got %+v, %v; want outcome 3 with 3 updates", resp, err)
	}
}

// TestSocketLaneCancel checks that a call whose caller reads the socket,
// waiting in the runtime's poller, returns when its context ends, and
// that the next call reads the lane as usual.
func TestSocketLaneCancel(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	c := socketLane(t, &LaneServer{Impl: laneMod{call: func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		if string(req.Input) != "wait" {
			return echo(ctx, req)
		}
		close(started)
		<-ctx.Done()
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCancelled}}, nil
	}}})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	if _, err := c.CallTool(ctx, &modapi.CallRequest{Tool: "t", Input: json.RawMessage("wait")}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage("2")})
	if err != nil || resp.Outcome.Text != "2" {
		t.Fatalf("next call: got %v, %v; want outcome 2", resp, err)
	}
}

// TestLaneStress checks that no call waits with nobody reading the lane:
// many callers at once, on a mod that answers out of order, some live
// (activity before the outcome), some cancelled before they start, while
// they read the lane, while they sleep, or never; each call that is not
// cancelled must get its own outcome. A call waiting with nobody reading
// hangs, and the test fails at its deadline.
func TestLaneStress(t *testing.T) {
	t.Parallel()
	c := socketLane(t, &LaneServer{Impl: laneMod{call: func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		var wait, n int
		fmt.Sscanf(string(req.Input), "%d %d", &wait, &n)
		if wait < 0 { // until cancelled
			<-ctx.Done()
			return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCancelled}}, nil
		}
		if wait > 0 {
			time.Sleep(time.Duration(wait) * time.Microsecond)
		}
		for i := range n {
			if req.Live() {
				req.Deliver(sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: fmt.Sprint(i)})
			}
		}
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted, Text: string(req.Input)}}, nil
	}}})
	const callers = 16
	calls := 400
	if testing.Short() {
		calls = 100
	}
	var wg sync.WaitGroup
	var ended atomic.Int64
	for g := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(g), 1))
			for range calls {
				if !stressCall(t, c, rnd) {
					return
				}
				ended.Add(1)
			}
		}()
	}
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	select {
	case <-all:
	case <-time.After(60 * time.Second):
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		n := ended.Load()
		c.Close() // ends the calls left, as broken
		<-all
		t.Fatalf("%d of %d calls ended in a minute; goroutines then:\n%s", n, callers*calls, buf)
	}
	// The lane still serves a call, read by its own caller.
	resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage("0 0")})
	if err != nil || resp.Outcome.Text != "0 0" {
		t.Fatalf("last call: got %v, %v; want outcome 0 0", resp, err)
	}
}

// stressCall makes one call of TestLaneStress, of a kind rnd picks, and
// checks its end; false when it failed the test.
func stressCall(t *testing.T, c *LaneClient, rnd *rand.Rand) bool {
	wait, n := rnd.IntN(3)*rnd.IntN(200), 0
	if rnd.IntN(4) == 0 {
		n = 1 + rnd.IntN(5)
	}
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	mayEnd := false // the call may end cancelled
	switch rnd.IntN(8) {
	case 0: // cancelled before it starts
		ctx, cancel = context.WithCancel(ctx)
		cancel()
		mayEnd = true
	case 1: // cancelled at a random point
		ctx, cancel = context.WithTimeout(ctx, time.Duration(rnd.IntN(300))*time.Microsecond)
		mayEnd = true
	case 2: // a handler that runs until cancelled
		ctx, cancel = context.WithTimeout(ctx, time.Duration(rnd.IntN(2000))*time.Microsecond)
		wait, mayEnd = -1, true
	case 3: // cancellable, not cancelled
		ctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	in := fmt.Sprintf("%d %d", wait, n)
	got := 0
	req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage(in)}
	if rnd.IntN(2) == 0 {
		req.OnActivity = func(sdk.ActivityUpdate) { got++ }
	}
	resp, err := c.CallTool(ctx, req)
	switch {
	case err != nil && mayEnd && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
	case err != nil:
		t.Errorf("call %q: %v", in, err)
		return false
	case resp.Outcome.Text != in:
		t.Errorf("call %q: got outcome %q", in, resp.Outcome.Text)
		return false
	case req.OnActivity != nil && got != n:
		t.Errorf("call %q: got %d updates, want %d", in, got, n)
		return false
	}
	return true
}

// processCPU is the CPU time this process has used, user and system.
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU both ends of the lane spent per call since
// start: on a busy machine a steadier figure than the time per call.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU(b)-start)/float64(b.N)/1e3, "cpu-µs/op")
}

// BenchmarkSocketLane measures the lane alone: a call and its outcome
// over a socketpair, both ends in this process. cpu-µs/op is the CPU of
// both ends per call.
func BenchmarkSocketLane(b *testing.B) {
	c := socketLane(b, &LaneServer{Impl: laneMod{call: echo}})
	req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage(`{"text":"hi"}`)}
	b.Run("serial", func(b *testing.B) {
		cpu := processCPU(b)
		for b.Loop() {
			if _, err := c.CallTool(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
	})
	b.Run("activity10", func(b *testing.B) {
		n := 0
		req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage("10"), OnActivity: func(sdk.ActivityUpdate) { n++ }}
		cpu := processCPU(b)
		for b.Loop() {
			if _, err := c.CallTool(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
		if n != 10*b.N {
			b.Fatalf("got %d updates, want %d", n, 10*b.N)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.SetParallelism(4)
		cpu := processCPU(b)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := c.CallTool(context.Background(), req); err != nil {
					b.Error(err)
					return
				}
			}
		})
		reportCPU(b, cpu)
	})
}

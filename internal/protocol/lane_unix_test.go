//go:build unix

package protocol

import (
	"context"
	"encoding/json"
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

//go:build unix

package main

import (
	"context"
	"testing"
	"time"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/bench/internal/echohooked"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/internal/modtrace"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/sdk"
)

// BenchmarkModLane calls the hooked echo mod's server over a call lane whose
// two ends are in this process: plain, and with the input check and the
// hook in the call's frame, as the host sends a hooked call. Both ends'
// allocations count, which the CPU of a busy machine does not blur:
//
//	go test ./bench -run '^$' -bench ModLane -benchmem
func BenchmarkModLane(b *testing.B) {
	c := inProcessLane(b, echohooked.Modkit(), protocol.LaneOptions{MaxMessageBytes: 1 << 20, Steps: true})
	session := sdk.Session{ID: "s", Workspace: "/w"}
	hook := &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "echo_hooked", Input: echo.Payload},
		Session: session, Run: modapi.Run{CallID: "h", Grace: time.Second}}
	for _, ahead := range []*modapi.Ahead{nil, {Check: true, Hook: hook, HookTimeout: time.Minute}} {
		name := "plain"
		if ahead != nil {
			name = "hooked"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := &modapi.CallRequest{Tool: "echo_hooked", Input: echo.Payload, Session: session, CallID: "c", Grace: time.Second, Ahead: ahead}
				resp, err := c.CallTool(context.Background(), req)
				if err != nil || resp.Stopped != nil || resp.Outcome.Status != modapi.StatusCompleted {
					b.Fatal(resp, err)
				}
			}
		})
	}
}

// inProcessLane serves gen's mod on one end of a call lane in this process
// and returns a client of the other end, closed when b ends.
func inProcessLane(b testing.TB, gen *sdk.Generated, opts protocol.LaneOptions) *protocol.LaneClient {
	return serveLane(b, &protocol.LaneServer{Impl: modserver.New(gen, nil), MaxMessageBytes: 1 << 20}, opts)
}

// serveLane is inProcessLane with the lane's server as the caller sets it.
func serveLane(b testing.TB, srv *protocol.LaneServer, opts protocol.LaneOptions) *protocol.LaneClient {
	hostEnd, modEnd, err := protocol.NewLanePair()
	if err != nil {
		b.Fatal(err)
	}
	hc, err := protocol.LaneConn(hostEnd)
	if err != nil {
		b.Fatal(err)
	}
	mc, err := protocol.LaneConn(modEnd)
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(mc) }()
	c := protocol.NewLaneClient(&protocol.GRPCClient{}, hc, opts)
	b.Cleanup(func() {
		c.Close()
		if err := <-served; err != nil {
			b.Error(err)
		}
	})
	return c
}

// TestModLaneAllocs bounds the allocations of a plain call over a lane in
// this process, both ends and the echo's own (decoding its input, its
// reply) included.
func TestModLaneAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector adds allocations")
	}
	c := inProcessLane(t, echohooked.Modkit(), protocol.LaneOptions{MaxMessageBytes: 1 << 20})
	req := &modapi.CallRequest{Tool: "echo_hooked", Input: echo.Payload, Session: sdk.Session{ID: "s", Workspace: "/w"}, CallID: "c", Grace: time.Second}
	got := testing.AllocsPerRun(200, func() {
		resp, err := c.CallTool(context.Background(), req)
		if err != nil || resp.Outcome.Status != modapi.StatusCompleted {
			t.Fatal(resp, err)
		}
	})
	// 43, now 30: the handler's context made on first use, its logger,
	// activity and questions served by the call's own value, the call
	// frame's messages in the lane's allocation, and the outcome's payload
	// from the pool.
	if want := 30.0; got > want {
		t.Errorf("got %.1f allocations a call, want at most %.0f", got, want)
	}
}

// TestModLaneTracedAllocs bounds what tracing adds to a lane call's
// allocations, both ends in this process, the mod's handler span encoded
// on the outcome frame: two, the mod's two contexts (its traceparent is
// read where the call's frame holds it, its span from a pool) and the
// host's copy of the spans, which leave the outcome's payload as it goes
// back to the pool (an untraced call's payload costs nothing).
func TestModLaneTracedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector adds allocations")
	}
	req := &modapi.CallRequest{Tool: "echo_hooked", Input: echo.Payload, Session: sdk.Session{ID: "s", Workspace: "/w"}, CallID: "c", Grace: time.Second}
	var allocs [2]float64
	for i, traced := range []bool{false, true} {
		rec := modtrace.NewRecorder()
		srv := &protocol.LaneServer{Impl: modserver.New(echohooked.Modkit(), nil), MaxMessageBytes: 1 << 20,
			Trace: func(ctx context.Context, tp, ts, bg string) context.Context {
				return modtrace.LaneIncoming(ctx, rec, tp, ts, bg)
			},
			Spans: func(dst []byte) []byte { return modtrace.LaneSpans(dst, rec) }}
		spans := 0
		opts := protocol.LaneOptions{MaxMessageBytes: 1 << 20, Spans: func(string) { spans++ }}
		if traced {
			opts.Trace = func(context.Context) (string, string, string, bool) {
				return "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "", "", true
			}
		}
		c := serveLane(t, srv, opts)
		allocs[i] = testing.AllocsPerRun(200, func() {
			resp, err := c.CallTool(context.Background(), req)
			if err != nil || resp.Outcome.Status != modapi.StatusCompleted {
				t.Fatal(resp, err)
			}
		})
		if traced != (spans > 0) {
			t.Errorf("traced %v: got %d outcomes with spans", traced, spans)
		}
	}
	if allocs[1] > allocs[0]+2 {
		t.Errorf("got %.1f allocations a traced call, want at most the untraced call's %.1f and 2", allocs[1], allocs[0])
	}
}

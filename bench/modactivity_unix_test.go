//go:build unix

package main

import (
	"context"
	"testing"
	"time"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/bench/internal/echomod"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/sdk"
)

// BenchmarkModLaneActivity calls the echo mod's server over a call lane
// whose two ends are in this process: echo, and echo_activity watched, as
// the activity10_vs_call row calls them (each update delivered to the
// caller's OnActivity as it arrives). Both ends' allocations count:
//
//	go test ./bench -run '^$' -bench ModLaneActivity -benchmem
func BenchmarkModLaneActivity(b *testing.B) {
	c := inProcessLane(b, echomod.Modkit(), protocol.LaneOptions{MaxMessageBytes: 1 << 20})
	session := sdk.Session{ID: "s", Workspace: "/w"}
	for _, tool := range []string{"echo", "echo_activity"} {
		b.Run(tool, func(b *testing.B) {
			b.ReportAllocs()
			updates := 0
			req := &modapi.CallRequest{Tool: tool, Input: echo.Payload, Session: session, CallID: "c", Grace: time.Second,
				OnActivity: func(sdk.ActivityUpdate) { updates++ }}
			for b.Loop() {
				resp, err := c.CallTool(context.Background(), req)
				if err != nil || resp.Outcome.Status != modapi.StatusCompleted {
					b.Fatal(resp, err)
				}
			}
			want := 0
			if tool == "echo_activity" {
				want = echomod.Updates * b.N
			}
			if updates != want {
				b.Fatalf("got %d updates, want %d", updates, want)
			}
		})
	}
}

//go:build unix

package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
)

// TestModBreakingItsLane checks that a mod writing on its call lane what
// the host never asked for fails its calls and is stopped, naming why, and
// that the next call gets a fresh process, also on a lane.
func TestModBreakingItsLane(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	if !host.CallLane(h.Host, "crashy") {
		t.Fatal("the mod's tool calls do not go over its call lane")
	}
	pid := host.PID(h.Host, "crashy")
	res := call(t, h, "crashy_crash", `{"how":"lane"}`)
	wantStatus(t, res, host.StatusFailed)
	if want := "mod crashy was stopped: it broke the call lane's protocol: a frame (outcome) for call 1152921504606846976, which the host never made"; res.Error != want {
		t.Errorf("got error %q, want %q", res.Error, want)
	}
	waitGone(t, []int{pid})
	res = call(t, h, "crashy_echo", `{"text":"again"}`)
	wantStatus(t, res, host.StatusCompleted)
	if !host.CallLane(h.Host, "crashy") || host.PID(h.Host, "crashy") == pid || !strings.Contains(res.Text, "again") {
		t.Errorf("got pid %d (was %d), lane %v, text %q; want a new process on a lane", host.PID(h.Host, "crashy"), pid, host.CallLane(h.Host, "crashy"), res.Text)
	}
}

// TestLaneCallAllocs bounds the host's allocations for a plain tool call
// over the lane: the call's questioning and flow live in its hostCall (the
// flow asks it its questions, no closures), the call frame's messages are
// reused, and the tool's result check and client-closed message
// are made at load.
func TestLaneCallAllocs(t *testing.T) {
	h := load(t, nil, crashyDir)
	req := &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"x"}`), Session: session(t)}
	call := func() {
		res, err := h.Call(context.Background(), req)
		if err != nil || res.Status != host.StatusCompleted {
			t.Fatalf("Call: got %v, %v; want completed", res, err)
		}
	}
	call()
	if !host.CallLane(h.Host, "crashy") {
		t.Fatal("the mod's tool calls do not go over its call lane")
	}
	got := testing.AllocsPerRun(200, call)
	t.Logf("%.1f allocations a call", got)
	// 54, then 49, then 42, then 41: the outcome's payload goes back to
	// the pool (test's mod and session included); then 37, the lane's
	// record of the call, the call frame's messages and the outcome's
	// reused; now 30, the steps ahead of the call (crashy alone hooks tool
	// calls) kept in its flow and frame, their functions one interface.
	// The bound leaves room for the pools, which the race detector empties
	// at random.
	if want := 33.0; got > want {
		t.Errorf("got %.1f allocations a call, want at most %.0f", got, want)
	}
}

// TestLaneActivityAllocs bounds the host's allocations for a call whose
// handler sends a title, ten log entries and a status, each delivered to
// OnActivity: beyond a plain call's, the log and the activity frame's
// payload the texts point into. The call's flow watches the activity
// itself (no closure), and the outcome's payload goes back to the pool
// once decoded.
func TestLaneActivityAllocs(t *testing.T) {
	h := load(t, nil, crashyDir)
	var events int
	req := &host.CallRequest{Tool: "crashy_flood", Input: json.RawMessage(`{"n":10}`), Session: session(t),
		OnActivity: func(host.ActivityEvent) { events++ }}
	call := func() {
		res, err := h.Call(context.Background(), req)
		if err != nil || res.Status != host.StatusCompleted || len(res.Activity.Log) != 10 {
			t.Fatalf("Call: got %v, %v; want completed with 10 log entries", res, err)
		}
	}
	call()
	if !host.CallLane(h.Host, "crashy") {
		t.Fatal("the mod's tool calls do not go over its call lane")
	}
	events = 0
	got := testing.AllocsPerRun(200, call)
	t.Logf("%.1f allocations a call", got)
	if events != 201*12 {
		t.Errorf("got %d events, want %d", events, 201*12)
	}
	// 34 before the flow watched the activity without a closure and the
	// outcome's payload was pooled, then 32; now 28, the lane's record of
	// the call, the call frame's messages and the outcome's reused; now
	// 21, the steps ahead of the call allocating nothing apart. The bound
	// leaves room for the pools, which the race detector empties at
	// random.
	if want := 24.0; got > want {
		t.Errorf("got %.1f allocations a call, want at most %.0f", got, want)
	}
}

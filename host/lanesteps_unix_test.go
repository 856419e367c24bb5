//go:build unix

package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/host/testdata/mods/crashy"
)

// TestStepsOnTheLane checks that hooks, input checks and approval rules
// decide a call alike whether they travel on the call lane, over gRPC
// beside it (a mod that serves only tool calls there), or over gRPC with
// no lane: crashy and approving both hook every tool call, so each call
// asks both.
func TestStepsOnTheLane(t *testing.T) {
	t.Parallel()
	modes := []struct {
		name        string
		set         func(*host.Host)
		lane, steps bool
	}{
		{"lane", func(*host.Host) {}, true, true},
		{"lane without steps", host.NoLaneSteps, true, false},
		{"gRPC", host.NoCallLane, false, false},
	}
	yes := func(context.Context, *host.ApprovalRequest) (bool, error) { return true, nil }
	no := func(context.Context, *host.ApprovalRequest) (bool, error) { return false, nil }
	cases := []struct {
		name, tool, input string
		approver          host.Approver
		status            host.Status
		text              string
	}{
		{"passes", "crashy_echo", `{"text":"a"}`, nil, host.StatusCompleted, "a"},
		{"hook refuses", "crashy_blocked", `{}`, nil, host.StatusFailed,
			"Tool failed: blocked by a hook of mod crashy: crashy_blocked is never allowed"},
		{"invalid input", "crashy_echo", `{"text":5}`, nil, host.StatusFailed,
			"Tool failed: invalid input for tool crashy_echo:\n  /text: must be a string, got a number"},
		{"another mod's hook refuses", "approving_guarded", `{"reason":"x","blocked":true}`, yes, host.StatusFailed,
			"Tool failed: blocked by a hook of mod approving: blocked before anyone was asked"},
		{"approved", "approving_guarded", `{"reason":"r"}`, yes, host.StatusCompleted, "ran"},
		{"denied", "approving_guarded", `{"reason":"r"}`, no, host.StatusDenied, ""},
		{"rule fails", "approving_guarded", `{"fail":"not now"}`, yes, host.StatusFailed, "Tool failed: not now"},
		{"rule times out", "approving_guarded", `{"hang":true}`, yes, host.StatusFailed,
			"Tool failed: approval rule of tool approving_guarded: timed out after 200ms"},
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			h := load(t, &host.Options{HookTimeout: 200 * time.Millisecond, GracePeriod: 10 * time.Second}, crashyDir, approvingDir)
			mode.set(h.Host)
			for _, tt := range cases {
				res, err := h.Call(context.Background(), &host.CallRequest{
					Tool: tt.tool, Input: json.RawMessage(tt.input), Session: session(t), Approver: tt.approver,
				})
				if err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
				if res.Status != tt.status || res.Text != tt.text && tt.text != "" {
					t.Errorf("%s: got %s %q (error %q), want %s %q", tt.name, res.Status, res.Text, res.Error, tt.status, tt.text)
				}
			}
			_, err := h.RunCommand(context.Background(), "crashy.refused", nil, session(t))
			if want := "command crashy.refused: blocked by a hook of mod crashy: not today"; err == nil || err.Error() != want {
				t.Errorf("command: got %v, want %q", err, want)
			}
			for _, id := range []string{"crashy", "approving"} {
				if lane, steps := host.CallLane(h.Host, id), host.LaneSteps(h.Host, id); lane != mode.lane || steps != mode.steps {
					t.Errorf("mod %s: got lane %v, steps on it %v; want %v, %v", id, lane, steps, mode.lane, mode.steps)
				}
				// Two mods hook tool calls: each call asks both apart.
				if apart := host.LaneStepsApart(h.Host, id); mode.steps && apart == 0 {
					t.Errorf("mod %s: got no steps on its lane apart from their calls, want every call's", id)
				}
			}
		})
	}
}

// TestStepsAhead checks that a call to the only mod that hooks tool calls
// carries its input check and hooks with it, and that they decide it as
// they do apart: crashy alone hooks every tool call. A call that asks
// another mod's hooks, or is traced, takes them apart.
func TestStepsAhead(t *testing.T) {
	t.Parallel()
	modes := []struct {
		name  string
		set   func(*host.Host)
		ahead bool
	}{
		{"lane", func(*host.Host) {}, true},
		{"lane without steps", host.NoLaneSteps, false},
		{"gRPC", host.NoCallLane, false},
	}
	cases := []struct {
		name, tool, input string
		status            host.Status
		text              string
	}{
		{"passes", "crashy_echo", `{"text":"a"}`, host.StatusCompleted, "a"},
		{"hook refuses", "crashy_blocked", `{}`, host.StatusFailed,
			"Tool failed: blocked by a hook of mod crashy: crashy_blocked is never allowed"},
		{"invalid input", "crashy_echo", `{"text":5}`, host.StatusFailed,
			"Tool failed: invalid input for tool crashy_echo:\n  /text: must be a string, got a number"},
		{"hook times out", "crashy_echo", `{"text":"` + crashy.HookWaits + `"}`, host.StatusFailed,
			"Tool failed: hook of mod crashy before tool.call: timed out after 200ms"},
		{"passes again", "crashy_echo", `{"text":"b","times":2}`, host.StatusCompleted, "b b"},
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			h := load(t, &host.Options{HookTimeout: 200 * time.Millisecond, GracePeriod: 10 * time.Second}, crashyDir)
			mode.set(h.Host)
			for _, tt := range cases {
				res := call(t, h, tt.tool, tt.input)
				if res.Status != tt.status || !strings.Contains(res.Text, tt.text) {
					t.Errorf("%s: got %s %q (error %q), want %s %q", tt.name, res.Status, res.Text, res.Error, tt.status, tt.text)
				}
			}
			if apart := host.LaneStepsApart(h.Host, "crashy"); mode.ahead && apart != 0 {
				t.Errorf("got %d steps apart from their calls, want every step ahead of its call", apart)
			}
			if !mode.ahead {
				return
			}
			// A traced call takes its steps apart, each with its span.
			ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
				TraceID: trace.TraceID{1}, SpanID: trace.SpanID{1}, TraceFlags: trace.FlagsSampled,
			}))
			res, err := h.Call(ctx, &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"t"}`), Session: session(t)})
			if err != nil {
				t.Fatal(err)
			}
			wantStatus(t, res, host.StatusCompleted)
			if apart := host.LaneStepsApart(h.Host, "crashy"); apart != 2 {
				t.Errorf("traced call: got %d steps apart from it, want its check and its hook", apart)
			}
		})
	}
}

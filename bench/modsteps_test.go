package main

import (
	"context"
	"testing"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/bench/internal/echohooked"
	"github.com/modkit/modkit/bench/internal/echomod"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/sdk"
)

// BenchmarkModSteps measures, in one process, what the hooked echo mod's
// server does for each step of a hooked call: the input check, the hook
// and the handler, as the mod runs them when they travel with the call.
// The hooked_vs_call row's mod side adds the first two to the third:
//
//	go test ./bench -run '^$' -bench ModSteps -benchmem
func BenchmarkModSteps(b *testing.B) {
	srv := modserver.New(echohooked.Modkit(), nil)
	ctx := context.Background()
	session := sdk.Session{ID: "s", Workspace: "/w"}
	b.Run("check", func(b *testing.B) {
		req := &modapi.CheckRequest{Tool: "echo_hooked", Input: echo.Payload}
		for b.Loop() {
			if resp, err := srv.CheckInput(ctx, req); err != nil || len(resp.Problems) > 0 || resp.Error != "" {
				b.Fatal(resp, err)
			}
		}
	})
	b.Run("hook", func(b *testing.B) {
		req := &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "echo_hooked", Input: echo.Payload}, Session: session, Run: modapi.Run{CallID: "h"}}
		for b.Loop() {
			if resp, err := srv.BeforeAction(ctx, req); err != nil || resp.Refusal != "" {
				b.Fatal(resp, err)
			}
		}
	})
	b.Run("call", func(b *testing.B) {
		req := &modapi.CallRequest{Tool: "echo_hooked", Input: echo.Payload, Session: session, CallID: "c"}
		for b.Loop() {
			if resp, err := srv.CallTool(ctx, req); err != nil || resp.Outcome.Status != modapi.StatusCompleted {
				b.Fatal(resp, err)
			}
		}
	})
}

// BenchmarkModActivity measures, in one process, what the echo mod's
// server does for echo_activity's ten updates: echo_activity against echo,
// each update handed to a function that keeps nothing, as the call lane
// hands it to the frame writer (whose cost BenchmarkActivityPost, in
// package protocol, measures):
//
//	go test ./bench -run '^$' -bench ModActivity -benchmem
func BenchmarkModActivity(b *testing.B) {
	srv := modserver.New(echomod.Modkit(), nil)
	ctx := context.Background()
	session := sdk.Session{ID: "s", Workspace: "/w"}
	updates := 0
	for _, tool := range []string{"echo", "echo_activity"} {
		b.Run(tool, func(b *testing.B) {
			req := &modapi.CallRequest{Tool: tool, Input: echo.Payload, Session: session, CallID: "c", OnActivity: func(sdk.ActivityUpdate) { updates++ }}
			for b.Loop() {
				if resp, err := srv.CallTool(ctx, req); err != nil || resp.Outcome.Status != modapi.StatusCompleted {
					b.Fatal(resp, err)
				}
			}
		})
	}
	if updates == 0 {
		b.Fatal("echo_activity sent no update")
	}
}

package modtest_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/host/testdata/mods/clientside"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

func TestClientScripts(t *testing.T) {
	g := clientside.Modkit()
	answer := func(as ...sdk.ClientAnswer) *modtest.Client { return &modtest.Client{Answers: as} }
	tests := []struct {
		name, tool, input string
		client            *modtest.Client
		hooks             bool
		status            modtest.Status
		text, result      string
		dropped           int
	}{
		{name: "answer", tool: "clientside_pick", input: `{"choices":["a","b"]}`, client: answer(sdk.ClientAnswer{Text: "b"}),
			status: modtest.StatusCompleted, text: "b"},
		{name: "error", tool: "clientside_pick", input: `{"choices":["a"]}`, client: answer(sdk.ClientAnswer{Error: "closed"}),
			status: modtest.StatusFailed, text: "Tool failed: closed"},
		{name: "answer twice", tool: "clientside_pick", input: `{"choices":["a","b"]}`,
			client: answer(sdk.ClientAnswer{Text: "a"}, sdk.ClientAnswer{Text: "b"}), status: modtest.StatusCompleted, text: "a", dropped: 1},
		{name: "never answer", tool: "clientside_pick", input: `{"choices":["a"]}`, client: &modtest.Client{Timeout: time.Minute},
			status: modtest.StatusFailed, text: "Tool failed: tool clientside_pick timed out after 1m0s waiting for the client's answer"},
		{name: "no client", tool: "clientside_pick", input: `{"choices":["a"]}`,
			status: modtest.StatusFailed, text: "Tool failed: tool clientside_pick runs in the client application, and no client handler was given for it"},
		{name: "either, no client", tool: "clientside_clock", input: `{}`, status: modtest.StatusCompleted, text: "mod: " + modtest.DefaultToday},
		{name: "either, client", tool: "clientside_clock", input: `{}`, client: answer(sdk.ClientAnswer{Text: "client"}),
			status: modtest.StatusCompleted, text: "client"},
		{name: "typed result", tool: "clientside_measure", input: `{"element":"nav"}`,
			client: answer(sdk.ClientAnswer{Text: "120 px", Result: json.RawMessage(`{"width":120}`)}),
			status: modtest.StatusCompleted, text: "120 px", result: `{"width":120}`},
		{name: "invalid typed result", tool: "clientside_measure", input: `{"element":"nav"}`,
			client: answer(sdk.ClientAnswer{Text: "?", Result: json.RawMessage(`{"width":"wide"}`)}),
			status: modtest.StatusFailed, text: "Tool failed: the client answered tool clientside_measure with an invalid result:\n  /width: "},
		{name: "invalid input", tool: "clientside_pick", input: `{"choices":["a","a"]}`, client: answer(sdk.ClientAnswer{Text: "a"}),
			status: modtest.StatusFailed, text: "Tool failed: invalid input for tool clientside_pick:\n  /choices: a is offered twice"},
		{name: "hook refusal", tool: "clientside_pick", input: `{"choices":["forbidden"]}`, client: answer(sdk.ClientAnswer{Text: "a"}), hooks: true,
			status: modtest.StatusFailed, text: "Tool failed: blocked by a hook of mod clientside: forbidden is not a choice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := modtest.Run(t, g, tt.tool, tt.input, &modtest.Options{Client: tt.client, Hooks: tt.hooks})
			if out.Status != tt.status || !strings.HasPrefix(out.Text, tt.text) {
				t.Errorf("got %s %q, want %s %q", out.Status, out.Text, tt.status, tt.text)
			}
			if string(out.Result) != tt.result {
				t.Errorf("got result %s, want %s", out.Result, tt.result)
			}
			if len(out.DroppedAnswers) != tt.dropped {
				t.Errorf("got dropped answers %v, want %d", out.DroppedAnswers, tt.dropped)
			}
			ranInClient := tt.client != nil && out.Status == modtest.StatusCompleted
			if ranInClient && string(out.ClientInput) != tt.input {
				t.Errorf("the client got input %s, want %s", out.ClientInput, tt.input)
			}
			if !ranInClient && tt.status == modtest.StatusCompleted && out.ClientInput != nil {
				t.Errorf("the mod ran the call, yet the client got input %s", out.ClientInput)
			}
		})
	}
}

func TestClientScriptCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := modtest.Run(t, clientside.Modkit(), "clientside_pick", `{"choices":["a"]}`,
		&modtest.Options{Context: ctx, Client: &modtest.Client{Answers: []sdk.ClientAnswer{{Text: "a"}}}})
	if out.Status != modtest.StatusCancelled || out.Text != "" {
		t.Errorf("got %s %q, want cancelled", out.Status, out.Text)
	}
	if want := []sdk.ClientAnswer(nil); !reflect.DeepEqual(out.DroppedAnswers, want) {
		t.Errorf("got dropped %v, want none", out.DroppedAnswers)
	}
}

// A tool the client runs that needs approval asks the person before the
// client sees the call, as on a host.
func TestClientToolNeedsApproval(t *testing.T) {
	const reason = "Erase nav from the screen"
	tests := []struct {
		name     string
		approver modtest.Approver
		status   modtest.Status
		text     string
	}{
		{"approve", modtest.Approve, modtest.StatusCompleted, "erased"},
		{"deny", modtest.Deny, modtest.StatusDenied,
			"The person declined this call, so clientside_erase did not run. They were asked: " + reason},
		{"no approver", nil, modtest.StatusFailed,
			"Tool failed: tool clientside_erase needs a person's approval and none could be asked: " + reason},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := modtest.Run(t, clientside.Modkit(), "clientside_erase", `{"element":"nav"}`, &modtest.Options{
				Approver: tt.approver,
				Client:   &modtest.Client{Answers: []sdk.ClientAnswer{{Text: "erased"}}},
			})
			if out.Status != tt.status || out.Text != tt.text || out.ApprovalReason != reason {
				t.Errorf("got %s %q (asked %q), want %s %q (asked %q)", out.Status, out.Text, out.ApprovalReason, tt.status, tt.text, reason)
			}
			if ran := out.ClientInput != nil; ran != (tt.status == modtest.StatusCompleted) {
				t.Errorf("got the client ran %v, want %v", ran, tt.status == modtest.StatusCompleted)
			}
			if out.Actions != nil {
				t.Errorf("got client actions %v, want none", out.Actions)
			}
		})
	}
}

// A call of a client tool cancelled while the person is asked ends
// cancelled before the client sees it.
func TestClientToolApprovalCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	approver := func(ctx context.Context, req *modtest.ApprovalRequest) (bool, error) {
		cancel()
		return modtest.NeverAnswer(ctx, req)
	}
	out := modtest.Run(t, clientside.Modkit(), "clientside_erase", `{"element":"nav"}`, &modtest.Options{
		Context: ctx, Approver: approver, Client: &modtest.Client{Answers: []sdk.ClientAnswer{{Text: "erased"}}},
	})
	if out.Status != modtest.StatusCancelled || out.ClientInput != nil {
		t.Errorf("got %s %q, client input %s; want cancelled before the client ran", out.Status, out.Text, out.ClientInput)
	}
}

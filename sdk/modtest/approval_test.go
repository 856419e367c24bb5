package modtest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modkit/modkit/host/testdata/mods/approving"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

type guardIn struct {
	Reason string `json:"reason"`
	Fail   string `json:"fail,omitempty"`
	Panic  bool   `json:"panic,omitempty"`
}

func (g guardIn) Validate() error {
	if g.Reason == "invalid" {
		return errors.New("/reason: must not be invalid")
	}
	return nil
}

type noteOut struct {
	Saved bool `json:"saved"`
}

var approvalMod = &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "approvals"},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[guardIn]{
			Name: "guarded", Description: "Runs when approved.", Activity: "Guarding…",
			Approval: &sdk.Approval[guardIn]{Ask: func(tc *sdk.ToolContext, in guardIn) (string, error) {
				switch {
				case in.Panic:
					panic("rule broke")
				case in.Fail != "":
					return "", errors.New(in.Fail)
				}
				return in.Reason + " on " + tc.Today(), nil
			}},
			Run: func(tc *sdk.ToolContext, in guardIn) (sdk.Result, error) { return sdk.Text("ran"), nil },
		},
		sdk.RenderedTool[struct{}, noteOut]{
			Name: "always", Description: "Always asks.", Activity: "Asking…",
			Approval: &sdk.Approval[struct{}]{Reason: "Save the note"},
			Run:      func(tc *sdk.ToolContext, in struct{}) (noteOut, error) { return noteOut{Saved: true}, nil },
			View:     sdk.View[struct{}, noteOut]{Text: func(noteOut) string { return "saved" }},
		},
	}},
})}

func TestApprovals(t *testing.T) {
	failing := func(context.Context, *modtest.ApprovalRequest) (bool, error) { return false, errors.New("nobody home") }
	tests := []struct {
		name, tool, input string
		approver          modtest.Approver
		wantStatus        modtest.Status
		wantText          string
		wantReason        string
	}{
		{"approve", "guarded", `{"reason":"Go"}`, modtest.Approve, modtest.StatusCompleted, "ran", "Go on 2026-01-02"},
		{"deny", "guarded", `{"reason":"Go"}`, modtest.Deny, modtest.StatusDenied,
			"The person declined this call, so guarded did not run. They were asked: Go on 2026-01-02", "Go on 2026-01-02"},
		{"always", "always", `{}`, modtest.Approve, modtest.StatusCompleted, "saved", "Save the note"},
		{"no approver", "always", `{}`, nil, modtest.StatusFailed,
			"Tool failed: tool always needs a person's approval and none could be asked: Save the note", "Save the note"},
		{"approver error", "always", `{}`, failing, modtest.StatusFailed,
			"Tool failed: approval for tool always could not be asked: nobody home", "Save the note"},
		{"rule error", "guarded", `{"reason":"Go","fail":"cannot tell"}`, modtest.Approve, modtest.StatusFailed, "Tool failed: cannot tell", ""},
		{"rule panic", "guarded", `{"reason":"Go","panic":true}`, modtest.Approve, modtest.StatusFailed,
			"Tool failed: approval rule of tool guarded panicked: rule broke", ""},
		{"invalid input", "guarded", `{"reason":"invalid"}`, modtest.Approve, modtest.StatusFailed,
			"Tool failed: invalid input for tool guarded:\n  /reason: must not be invalid", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := modtest.Run(t, approvalMod, tt.tool, tt.input, &modtest.Options{Approver: tt.approver})
			if out.Status != tt.wantStatus || out.Text != tt.wantText || out.ApprovalReason != tt.wantReason {
				t.Errorf("got %s %q (asked %q), want %s %q (asked %q)", out.Status, out.Text, out.ApprovalReason, tt.wantStatus, tt.wantText, tt.wantReason)
			}
			if tt.wantStatus == modtest.StatusDenied && out.ViewState().Error != "the person declined the call" {
				t.Errorf("got view error %q for a denied call, want the person declined", out.ViewState().Error)
			}
		})
	}
}

func TestNeverAnswer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	asked := make(chan string, 1)
	approver := func(ctx context.Context, req *modtest.ApprovalRequest) (bool, error) {
		asked <- req.Reason
		return modtest.NeverAnswer(ctx, req)
	}
	done := make(chan *modtest.Outcome, 1)
	go func() {
		out, err := modtest.Call(approvalMod, "always", `{}`, &modtest.Options{Approver: approver, Context: ctx})
		if err != nil {
			out = &modtest.Outcome{Text: err.Error()}
		}
		done <- out
	}()
	if reason := <-asked; !strings.HasPrefix(reason, "Save the note") {
		t.Errorf("asked %q, want the tool's reason", reason)
	}
	cancel()
	if out := <-done; out.Status != modtest.StatusCancelled || out.Text != "" {
		t.Errorf("got %s %q, want cancelled", out.Status, out.Text)
	}
}

// A call that needed approval has its client actions when approved and
// completed, and none when denied, failed or cancelled after acting.
func TestApprovalWithClientActions(t *testing.T) {
	g := approving.Modkit()
	acted := func(u sdk.ActivityUpdate) bool { return u.Text == "acted" }
	out := modtest.Run(t, g, "approving_reveal", `{"secret":"s"}`, &modtest.Options{Approver: modtest.Approve})
	out.WantActions(t, approving.Reveal.New(approving.RevealParams{Secret: "s"}))
	for _, tt := range []struct {
		name, input string
		opts        *modtest.Options
		status      modtest.Status
	}{
		{"denied", `{"secret":"s"}`, &modtest.Options{Approver: modtest.Deny}, modtest.StatusDenied},
		{"failed", `{"secret":"s","fail":true}`, &modtest.Options{Approver: modtest.Approve}, modtest.StatusFailed},
		{"cancelled", `{"secret":"s","hang":true}`, &modtest.Options{Approver: modtest.Approve, CancelWhen: acted}, modtest.StatusCancelled},
	} {
		out := modtest.Run(t, g, "approving_reveal", tt.input, tt.opts)
		if out.Status != tt.status || out.Actions != nil {
			t.Errorf("%s: got %s %q with client actions %v, want %s with none", tt.name, out.Status, out.Text, out.Actions, tt.status)
		}
	}
}

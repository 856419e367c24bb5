package callflow

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/approval"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// Every end of an approval step reads as both environments report it.
func TestRefused(t *testing.T) {
	broke := errors.New("broke")
	for _, tt := range []struct {
		step    modapi.ApprovalStep
		refused bool
		want    Ending
	}{
		{modapi.ApprovalStep{Verdict: modapi.ApprovalRun, Reason: "r"}, false, Ending{}},
		{modapi.ApprovalStep{Verdict: modapi.ApprovalDenied, Reason: "r"}, true,
			Ending{Status: modapi.StatusDenied, Text: words.Denied("t", "r"), Error: words.Declined}},
		{modapi.ApprovalStep{Verdict: modapi.ApprovalDismissed, Reason: "r"}, true,
			Ending{Status: modapi.StatusDenied, Text: words.Dismissed("t", "r"), Error: words.DismissedError}},
		{modapi.ApprovalStep{Verdict: modapi.ApprovalFailed, Failure: "no", Err: broke}, true,
			Ending{Status: modapi.StatusFailed, Text: "Tool failed: no", Error: "no", Cause: broke}},
		{modapi.ApprovalStep{Verdict: modapi.ApprovalCancelled, Err: context.Canceled}, true,
			Ending{Status: modapi.StatusCancelled, Error: "call cancelled", Cause: context.Canceled}},
	} {
		got, refused := Refused("t", tt.step)
		if refused != tt.refused || got != tt.want {
			t.Errorf("verdict %d: got %+v, %v; want %+v, %v", tt.step.Verdict, got, refused, tt.want, tt.refused)
		}
	}
}

func TestCompleted(t *testing.T) {
	for _, tt := range []struct {
		o                 modapi.Outcome
		status, text, err string
	}{
		{modapi.Outcome{Status: modapi.StatusCompleted, Text: "done"}, "completed", "done", ""},
		{modapi.Outcome{Status: modapi.StatusFailed, Error: "boom"}, "failed", "Tool failed: boom", "boom"},
		{modapi.Outcome{Status: modapi.StatusFailed, Problems: []string{"/a: bad"}}, "failed",
			"Tool failed: " + words.InvalidInput("t", []string{"/a: bad"}), words.InvalidInput("t", []string{"/a: bad"})},
		{modapi.Outcome{Status: modapi.StatusCancelled}, "cancelled", "", "call cancelled"},
	} {
		e := Completed("t", &tt.o)
		if string(e.Status) != tt.status || e.Text != tt.text || e.Error != tt.err {
			t.Errorf("%+v: got %s %q %q, want %s %q %q", tt.o, e.Status, e.Text, e.Error, tt.status, tt.text, tt.err)
		}
	}
}

func TestClientAnswered(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	noCheck := func([]byte) ([]string, error) { return nil, nil }
	for _, tt := range []struct {
		name       string
		ctx        context.Context
		a          sdk.ClientAnswer
		err        error
		status     modapi.Status
		textPrefix string
	}{
		{"answered", ctx, sdk.ClientAnswer{Text: "a"}, nil, modapi.StatusCompleted, "a"},
		{"answered with an error", ctx, sdk.ClientAnswer{Error: "no screen"}, nil, modapi.StatusFailed, "Tool failed: no screen"},
		{"timed out", ctx, sdk.ClientAnswer{}, modapi.ErrClientTimeout, modapi.StatusFailed, "Tool failed: " + words.ClientTimedOut("t", time.Minute)},
		{"cancelled", cancelled, sdk.ClientAnswer{}, context.Canceled, modapi.StatusCancelled, ""},
		{"closed", ctx, sdk.ClientAnswer{}, errors.New("closed"), modapi.StatusFailed, "Tool failed: the host closed"},
	} {
		e, _ := ClientAnswered(tt.ctx, "t", tt.a, tt.err, time.Minute, "the host closed", false, 0, noCheck)
		if e.Status != tt.status || !strings.HasPrefix(e.Text, tt.textPrefix) || (tt.textPrefix == "" && e.Text != "") {
			t.Errorf("%s: got %s %q, want %s %q", tt.name, e.Status, e.Text, tt.status, tt.textPrefix)
		}
	}
}

// Approve runs the rule, asks only when it gives a reason, and builds the
// approver's request from the reason.
func TestApprove(t *testing.T) {
	ctx := context.Background()
	rule := func(reason string, err error) func(context.Context) (*modapi.ApprovalResponse, error) {
		return func(context.Context) (*modapi.ApprovalResponse, error) {
			return &modapi.ApprovalResponse{Reason: reason}, err
		}
	}
	var asked []string
	approver := func(answer bool) func(string) (string, error) {
		return AskApprover(ctx, func(_ context.Context, r *approval.Request) (bool, error) {
			asked = append(asked, r.Tool+": "+r.Reason)
			return answer, nil
		}, func(reason string) *approval.Request { return &approval.Request{Tool: "t", Reason: reason} })
	}

	if step, _, refused := Approve(ctx, "t", rule("", nil), approver(false)); refused || step.Verdict != modapi.ApprovalRun || len(asked) != 0 {
		t.Errorf("no reason: got %+v, refused %v, asked %q; want to run unasked", step, refused, asked)
	}
	if step, end, refused := Approve(ctx, "t", rule("Do it", nil), approver(true)); refused || step.Reason != "Do it" || end.Status != "" {
		t.Errorf("approved: got %+v, %+v, refused %v", step, end, refused)
	}
	if _, end, refused := Approve(ctx, "t", rule("Do it", nil), approver(false)); !refused || end.Status != modapi.StatusDenied {
		t.Errorf("declined: got %+v, refused %v, want denied", end, refused)
	}
	if got := strings.Join(asked, "|"); got != "t: Do it|t: Do it" {
		t.Errorf("asked %q, want the tool and reason twice", got)
	}
	if _, end, refused := Approve(ctx, "t", rule("", errors.New("rule broke")), nil); !refused || end.Text != "Tool failed: rule broke" {
		t.Errorf("rule fails: got %+v, refused %v", end, refused)
	}
	if _, end, refused := Approve(ctx, "t", rule("Do it", nil), nil); !refused || end.Error != words.NoApprover("t", "Do it") {
		t.Errorf("nobody to ask: got %+v, refused %v", end, refused)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, end, refused := Approve(cancelled, "t", rule("Do it", nil), approver(true)); !refused || end.Status != modapi.StatusCancelled {
		t.Errorf("cancelled: got %+v, refused %v", end, refused)
	}
}

// Hooks stops at the first refusal or error, in HookOrder.
func TestHooks(t *testing.T) {
	var ran []string
	run := func(refuseAt string) func(context.Context, sdk.Action) (string, error) {
		return func(_ context.Context, a sdk.Action) (string, error) {
			ran = append(ran, a.Name)
			if a.Name == refuseAt {
				return "no", nil
			}
			return "", nil
		}
	}
	cmd := sdk.Action{Name: sdk.ActionCommandRun, Command: "c"}
	if refusal, err := Hooks(context.Background(), cmd, run("")); refusal != "" || err != nil || strings.Join(ran, " ") != "command.run command:c" {
		t.Errorf("got %q, %v after %q", refusal, err, ran)
	}
	ran = nil
	if refusal, _ := Hooks(context.Background(), cmd, run(sdk.ActionCommandRun)); refusal != "no" || strings.Join(ran, " ") != "command.run" {
		t.Errorf("got %q after %q, want a refusal after command.run alone", refusal, ran)
	}
}

func TestWhere(t *testing.T) {
	for _, tt := range []struct {
		runs            manifest.Runs
		haveClient      bool
		inClient, ended bool
	}{
		{manifest.RunsInMod, false, false, false},
		{manifest.RunsInMod, true, false, false},
		{manifest.RunsEither, false, false, false},
		{manifest.RunsEither, true, true, false},
		{manifest.RunsInClient, true, true, false},
		{manifest.RunsInClient, false, false, true},
	} {
		inClient, end, ended := Where("t", tt.runs, tt.haveClient)
		if inClient != tt.inClient || ended != tt.ended || (ended && end.Error != words.NoClient("t")) {
			t.Errorf("runs %q, client %v: got in client %v, ended %v (%q); want %v, %v", tt.runs, tt.haveClient, inClient, ended, end.Error, tt.inClient, tt.ended)
		}
	}
}

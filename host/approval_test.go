package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/host/testdata/mods/approving"
)

const approvingDir = "testdata/mods/approving"

// asker is an Approver that records what it was asked and answers as
// scripted.
type asker struct {
	asked  []*host.ApprovalRequest
	answer bool
	err    error
}

func (a *asker) approve(_ context.Context, req *host.ApprovalRequest) (bool, error) {
	a.asked = append(a.asked, req)
	return a.answer, a.err
}

func TestApproval(t *testing.T) {
	t.Parallel()
	h := load(t, nil, approvingDir)
	tests := []struct {
		name, tool, input string
		// nil means no approver
		asker      *asker
		wantStatus host.Status
		wantText   string
		// wantReason is what the person was asked; "" when nobody was.
		wantReason string
		wantRan    bool
	}{
		{name: "not needed", tool: "approving_guarded", input: `{}`, asker: &asker{},
			wantStatus: host.StatusCompleted, wantText: "ran", wantRan: true},
		{name: "approved", tool: "approving_guarded", input: `{"reason":"Do the thing"}`, asker: &asker{answer: true},
			wantStatus: host.StatusCompleted, wantText: "ran", wantReason: "Do the thing", wantRan: true},
		{name: "denied", tool: "approving_guarded", input: `{"reason":"Do the thing"}`, asker: &asker{},
			wantStatus: host.StatusDenied, wantReason: "Do the thing",
			wantText: "The person declined this call, so approving_guarded did not run. They were asked: Do the thing"},
		{name: "always", tool: "approving_always", input: `{}`, asker: &asker{answer: true},
			wantStatus: host.StatusCompleted, wantText: "ran always", wantReason: "Run approving_always, which changes nothing"},
		{name: "no approver", tool: "approving_guarded", input: `{"reason":"Do the thing"}`,
			wantStatus: host.StatusFailed, wantReason: "Do the thing",
			wantText: "Tool failed: tool approving_guarded needs a person's approval and none could be asked: Do the thing"},
		{name: "approver error", tool: "approving_guarded", input: `{"reason":"Do the thing"}`, asker: &asker{err: errors.New("no terminal")},
			wantStatus: host.StatusFailed, wantReason: "Do the thing",
			wantText: "Tool failed: approval for tool approving_guarded could not be asked: no terminal"},
		{name: "rule fails", tool: "approving_guarded", input: `{"reason":"x","fail":"cannot tell"}`, asker: &asker{answer: true},
			wantStatus: host.StatusFailed, wantText: "Tool failed: cannot tell"},
		{name: "invalid input", tool: "approving_guarded", input: `{"reason":5}`, asker: &asker{answer: true},
			wantStatus: host.StatusFailed, wantText: "Tool failed: invalid input for tool approving_guarded:\n  /reason: "},
		{name: "hook refuses first", tool: "approving_guarded", input: `{"reason":"x","blocked":true}`, asker: &asker{answer: true},
			wantStatus: host.StatusFailed, wantText: "Tool failed: blocked by a hook of mod approving: blocked before anyone was asked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			marker := filepath.Join(t.TempDir(), "ran")
			input := json.RawMessage(tt.input)
			if tt.tool == "approving_guarded" {
				input = json.RawMessage(strings.Replace(tt.input, "{", `{"marker":`+strconv.Quote(marker)+",", 1))
				input = json.RawMessage(strings.Replace(string(input), ",}", "}", 1))
			}
			req := &host.CallRequest{Tool: tt.tool, Input: input, Session: inWorkspace(filepath.Dir(marker)), Label: "L1"}
			if tt.asker != nil {
				req.Approver = tt.asker.approve
			}
			res, err := h.Call(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			wantStatus(t, res, tt.wantStatus)
			if !strings.HasPrefix(res.Text, tt.wantText) {
				t.Errorf("got text %q, want %q", res.Text, tt.wantText)
			}
			if res.ApprovalReason != tt.wantReason {
				t.Errorf("got approval reason %q, want %q", res.ApprovalReason, tt.wantReason)
			}
			if tt.asker != nil {
				switch {
				case tt.wantReason == "" && len(tt.asker.asked) > 0:
					t.Errorf("the approver was asked %q, want not asked", tt.asker.asked[0].Reason)
				case tt.wantReason != "" && len(tt.asker.asked) != 1:
					t.Errorf("the approver was asked %d times, want once", len(tt.asker.asked))
				case tt.wantReason != "":
					a := tt.asker.asked[0]
					if a.Tool != tt.tool || a.Reason != tt.wantReason || a.CallID != res.CallID || a.Label != "L1" || string(a.Input) != string(input) {
						t.Errorf("got asked %+v, want tool %s, reason %q, the call's id, label and input", a, tt.tool, tt.wantReason)
					}
				}
			}
			if _, err := os.Stat(marker); (err == nil) != tt.wantRan {
				t.Errorf("got handler ran %v, want %v", err == nil, tt.wantRan)
			}
			if res.Status == host.StatusDenied && res.Activity.Log != nil {
				t.Errorf("got activity %v from a denied call, want none", res.Activity.Log)
			}
		})
	}
}

// TestApprovalCancelledWhileWaiting cancels a call while the person is
// asked: it ends cancelled, the handler never runs, and the mod, which
// ran no handler, keeps serving.
func TestApprovalCancelledWhileWaiting(t *testing.T) {
	t.Parallel()
	h := load(t, &host.Options{GracePeriod: time.Millisecond}, approvingDir)
	marker := filepath.Join(t.TempDir(), "ran")
	ctx, cancel := context.WithCancel(context.Background())
	var pid int
	res, err := h.Call(ctx, &host.CallRequest{
		Tool: "approving_guarded", Input: json.RawMessage(`{"reason":"wait","marker":` + strconv.Quote(marker) + `}`), Session: inWorkspace(filepath.Dir(marker)),
		Approver: func(ctx context.Context, _ *host.ApprovalRequest) (bool, error) {
			pid = host.PID(h.Host, "approving")
			cancel()
			<-ctx.Done()
			return true, nil // too late: the call was cancelled
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCancelled)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the handler ran after the call was cancelled while waiting for approval")
	}
	// The next call works in the same workspace, so the same process
	// serves it (a confined mod runs one process per workspace).
	next, err := h.Call(context.Background(), &host.CallRequest{Tool: "approving_guarded", Input: json.RawMessage(`{}`), Session: inWorkspace(filepath.Dir(marker))})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, next, host.StatusCompleted)
	if got := host.PID(h.Host, "approving"); pid == 0 || got != pid {
		t.Errorf("got mod pid %d after the cancelled wait, want %d still serving", got, pid)
	}
}

// TestApprovalRuleIsBounded: an approval rule that never returns is cut at
// the hook timeout, and the call fails saying so.
func TestApprovalRuleIsBounded(t *testing.T) {
	t.Parallel()
	h := load(t, &host.Options{HookTimeout: 100 * time.Millisecond}, approvingDir)
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "approving_guarded", Input: json.RawMessage(`{"hang":true}`), Session: session(t),
		Approver: func(context.Context, *host.ApprovalRequest) (bool, error) {
			t.Error("the approver was asked though the rule never decided")
			return true, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusFailed)
	if want := "Tool failed: approval rule of tool approving_guarded: timed out after 100ms"; res.Text != want {
		t.Errorf("got %q, want %q", res.Text, want)
	}
}

// TestApprovalWaitIsNotTheHandlers: a person who takes longer than the
// call timeout to approve does not make the call time out: the timeout
// bounds the handler, which starts once approved.
func TestApprovalWaitIsNotTheHandlers(t *testing.T) {
	t.Parallel()
	const timeout = time.Second
	h := load(t, &host.Options{CallTimeout: timeout}, approvingDir)
	if err := host.RunInProcess(h.Host, approving.Modkit()); err != nil {
		t.Fatal(err)
	}
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "approving_guarded", Input: json.RawMessage(`{"reason":"slowly"}`), Session: session(t),
		Approver: func(ctx context.Context, _ *host.ApprovalRequest) (bool, error) {
			select {
			case <-time.After(timeout * 3 / 2):
				return true, nil
			case <-ctx.Done():
				return false, ctx.Err()
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
}

// TestApprovalWithClientActions: a call that needed approval carries its
// client actions when approved and completed, and none when denied,
// failed or cancelled, though the handler acted before failing or being
// cancelled.
func TestApprovalWithClientActions(t *testing.T) {
	t.Parallel()
	h := load(t, nil, approvingDir)
	tests := []struct {
		name, input string
		approve     bool
		wantStatus  host.Status
		wantActions string
	}{
		{"approved", `{"secret":"s"}`, true, host.StatusCompleted, `[{"kind":"reveal","params":{"secret":"s"}}]`},
		{"denied", `{"secret":"s"}`, false, host.StatusDenied, `null`},
		{"failed", `{"secret":"s","fail":true}`, true, host.StatusFailed, `null`},
		{"cancelled", `{"secret":"s","hang":true}`, true, host.StatusCancelled, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			res, err := h.Call(ctx, &host.CallRequest{
				Tool: "approving_reveal", Input: json.RawMessage(tt.input), Session: session(t),
				Approver: func(context.Context, *host.ApprovalRequest) (bool, error) { return tt.approve, nil },
				OnActivity: func(ev host.ActivityEvent) {
					if ev.Update.Text == "acted" {
						cancel()
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			wantStatus(t, res, tt.wantStatus)
			if got, _ := json.Marshal(res.Actions); string(got) != tt.wantActions {
				t.Errorf("got client actions %s, want %s", got, tt.wantActions)
			}
		})
	}
}

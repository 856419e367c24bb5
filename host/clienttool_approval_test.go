package host_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// steps records, in order, what happened to one call.
type steps struct {
	mu   sync.Mutex
	list []string
}

func (s *steps) add(step string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, step)
}

func (s *steps) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, _ := json.Marshal(s.list)
	return string(data)
}

// A tool the client runs that needs approval asks the person first; the
// client handler runs only when they approve, and its answer carries no
// client actions.
func TestClientToolNeedsApproval(t *testing.T) {
	t.Parallel()
	const erase, reason = "clientside_erase", "Erase nav from the screen"
	tests := []struct {
		name string
		// approve is the person's answer; nil means no approver.
		approve    *bool
		wantStatus host.Status
		wantText   string
		wantSteps  string
	}{
		{"approved", ptr(true), host.StatusCompleted, "erased nav", `["asked","handled"]`},
		{"denied", ptr(false), host.StatusDenied,
			"The person declined this call, so clientside_erase did not run. They were asked: " + reason, `["asked"]`},
		{"no approver", nil, host.StatusFailed,
			"Tool failed: tool clientside_erase needs a person's approval and none could be asked: " + reason, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := loadClientside(t, nil)
			var s steps
			req := &host.CallRequest{Tool: erase, Input: json.RawMessage(`{"element":"nav"}`), Session: session(t),
				Client: host.ClientHandlers{erase: func(c *host.ClientCall) {
					s.add("handled")
					c.Reply(sdk.ClientAnswer{Text: "erased nav"})
				}}}
			if tt.approve != nil {
				req.Approver = func(_ context.Context, r *host.ApprovalRequest) (bool, error) {
					s.add("asked")
					if r.Reason != reason || r.Annotations == nil || !r.Annotations.Destructive {
						t.Errorf("got asked %q with annotations %+v, want %q, destructive", r.Reason, r.Annotations, reason)
					}
					return *tt.approve, nil
				}
			}
			res, err := h.Call(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			wantStatus(t, res, tt.wantStatus)
			if res.Text != tt.wantText {
				t.Errorf("got text %q, want %q", res.Text, tt.wantText)
			}
			if res.ApprovalReason != reason {
				t.Errorf("got approval reason %q, want %q", res.ApprovalReason, reason)
			}
			if got := s.String(); got != tt.wantSteps {
				t.Errorf("got steps %s, want %s", got, tt.wantSteps)
			}
			if res.Actions != nil {
				t.Errorf("got client actions %v, want none", res.Actions)
			}
		})
	}
}

// A call of a client tool cancelled while the person is asked ends
// cancelled, and its client handler never runs.
func TestClientToolApprovalCancelled(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	res, err := h.Call(ctx, &host.CallRequest{
		Tool: "clientside_erase", Input: json.RawMessage(`{"element":"nav"}`), Session: session(t),
		Approver: func(ctx context.Context, _ *host.ApprovalRequest) (bool, error) {
			cancel() // the person closed the conversation
			<-ctx.Done()
			return true, nil // too late
		},
		Client: host.ClientHandlers{"clientside_erase": func(c *host.ClientCall) {
			t.Error("the client handler ran for a call cancelled while waiting for approval")
			c.Reply(sdk.ClientAnswer{Text: "erased"})
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCancelled)
}

// The wait for a person's approval is not the client's: a person slower
// than the client timeout does not make the call time out.
func TestClientToolApprovalWaitIsNotTheClients(t *testing.T) {
	t.Parallel()
	const timeout = time.Second
	h := loadClientside(t, &host.Options{ClientTimeout: timeout})
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "clientside_erase", Input: json.RawMessage(`{"element":"nav"}`), Session: session(t),
		Approver: func(ctx context.Context, _ *host.ApprovalRequest) (bool, error) {
			select {
			case <-time.After(timeout * 3 / 2):
				return true, nil
			case <-ctx.Done():
				return false, ctx.Err()
			}
		},
		Client: host.ClientHandlers{"clientside_erase": answer(sdk.ClientAnswer{Text: "erased"})},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
}

func ptr[T any](v T) *T { return &v }

package modapi

import (
	"context"
	"errors"
	"testing"
)

func TestDecide(t *testing.T) {
	t.Parallel()
	yes := func(string) (bool, error) { return true, nil }
	no := func(string) (bool, error) { return false, nil }
	broken := func(string) (bool, error) { return false, errors.New("no terminal") }
	tests := []struct {
		name    string
		resp    ApprovalResponse
		ask     func(string) (bool, error)
		cancel  bool // the call is cancelled while the person is asked
		verdict ApprovalVerdict
		reason  string
		failure string
	}{
		{"not needed", ApprovalResponse{}, no, false, ApprovalRun, "", ""},
		{"approved", ApprovalResponse{Reason: "Go"}, yes, false, ApprovalRun, "Go", ""},
		{"denied", ApprovalResponse{Reason: "Go"}, no, false, ApprovalDenied, "Go", ""},
		{"nobody to ask", ApprovalResponse{Reason: "Go"}, nil, false, ApprovalFailed, "Go",
			"tool t needs a person's approval and none could be asked: Go"},
		{"approver error", ApprovalResponse{Reason: "Go"}, broken, false, ApprovalFailed, "Go",
			"approval for tool t could not be asked: no terminal"},
		{"cancelled, though approved", ApprovalResponse{Reason: "Go"}, yes, true, ApprovalCancelled, "Go", ""},
		{"rule error", ApprovalResponse{Reason: "Go", Error: "cannot tell"}, yes, false, ApprovalFailed, "", "cannot tell"},
		{"invalid input", ApprovalResponse{Problems: []string{"/x: wrong"}}, yes, false, ApprovalFailed, "",
			"invalid input for tool t:\n  /x: wrong"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ask := tt.ask
			if tt.cancel {
				ask = func(r string) (bool, error) {
					cancel()
					return tt.ask(r)
				}
			}
			var act func(string) (string, error)
			if ask != nil {
				act = func(r string) (string, error) {
					if ok, err := ask(r); !ok {
						return "decline", err
					}
					return "accept", nil
				}
			}
			s := Decide(ctx, "t", &tt.resp, act)
			if s.Verdict != tt.verdict || s.Reason != tt.reason || s.Failure != tt.failure {
				t.Errorf("got %+v, want verdict %d, reason %q, failure %q", s, tt.verdict, tt.reason, tt.failure)
			}
		})
	}
}

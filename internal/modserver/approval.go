package modserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/sdkrt"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

var _ modapi.ApprovalRule = (*Server)(nil)

// NeedsApproval implements modapi.ApprovalRule: it decodes the input as
// CallTool would and runs the tool's approval rule on it.
func (s *Server) NeedsApproval(ctx context.Context, req *modapi.ApprovalRequest) (*modapi.ApprovalResponse, error) {
	t, ok := s.tools[req.Tool]
	if !ok {
		return &modapi.ApprovalResponse{Error: fmt.Sprintf("mod %s has no tool %s", s.id, req.Tool)}, nil
	}
	s.track(req.CallID, 1)
	defer s.track(req.CallID, -1)
	input, err := s.decode(t.Tool, req.Input)
	if err == nil {
		a, ok := t.Tool.(sdkrt.Approving)
		if !ok {
			return &modapi.ApprovalResponse{}, nil
		}
		call := sdkrt.Call{
			SessionID: req.Session.ID,
			Workspace: req.Session.Workspace,
			CallID:    req.CallID,
			Today:     req.Today,
			Caller:    req.Caller,
			Logger:    sdkrt.LoggerFunc(func() *slog.Logger { return s.log.With("tool", req.Tool, "call", req.CallID, "approval", true) }),
		}
		var reason string
		err = s.recovered("approval rule of tool ", req.Tool, func() error {
			var err error
			reason, err = a.NeedsApproval(ctx, call, input)
			return err
		})
		if err == nil {
			return &modapi.ApprovalResponse{Reason: modapi.CapReason(reason)}, nil
		}
	}
	var ie *sdk.InputError
	if errors.As(err, &ie) {
		return &modapi.ApprovalResponse{Problems: words.Problems(ie.Problems, ie.More)}, nil
	}
	return &modapi.ApprovalResponse{Error: err.Error()}, nil
}

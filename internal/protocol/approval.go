package protocol

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
)

var _ modapi.ApprovalRule = (*GRPCClient)(nil)

// NeedsApproval implements modapi.ApprovalRule.
func (c *GRPCClient) NeedsApproval(ctx context.Context, req *modapi.ApprovalRequest) (*modapi.ApprovalResponse, error) {
	resp, err := c.PB.NeedsApproval(ctx, approvalToProto(req))
	if err != nil {
		return nil, c.wire(err, nil)
	}
	return approvalFromProto(resp), nil
}

// approvalToProto, approvalRequestFromProto and approvalFromProto convert
// an approval rule's request and answer for the wire, on gRPC or the call lane.
func approvalToProto(req *modapi.ApprovalRequest) *pb.NeedsApprovalRequest {
	return &pb.NeedsApprovalRequest{
		Tool: req.Tool, Input: req.Input, Session: SessionToProto(req.Session), Today: req.Today,
		CallId: req.CallID, GraceMillis: req.Grace.Milliseconds(), Caller: callerToProto(req.Caller),
	}
}

func approvalRequestFromProto(req *pb.NeedsApprovalRequest) *modapi.ApprovalRequest {
	return &modapi.ApprovalRequest{
		Tool: req.GetTool(), Input: req.GetInput(), Session: SessionFromProto(req.GetSession()), Today: req.GetToday(),
		Caller: callerFromProto(req.GetCaller()),
		Run:    modapi.Run{CallID: req.GetCallId(), Grace: millis(req.GetGraceMillis())},
	}
}

func approvalFromProto(resp *pb.NeedsApprovalResponse) *modapi.ApprovalResponse {
	return &modapi.ApprovalResponse{Reason: resp.GetReason(), Error: resp.GetError(), Problems: resp.GetProblems()}
}

// errNoApprovalRule is the mod's answer when it cannot run approval rules.
const errNoApprovalRule = "the mod cannot say whether a call needs approval"

// NeedsApproval implements pb.ModServer, for an Impl that is a
// modapi.ApprovalRule.
func (s *GRPCServer) NeedsApproval(ctx context.Context, req *pb.NeedsApprovalRequest) (*pb.NeedsApprovalResponse, error) {
	a, ok := s.Impl.(modapi.ApprovalRule)
	if !ok {
		return nil, status.Error(codes.Unimplemented, errNoApprovalRule)
	}
	resp, err := a.NeedsApproval(ctx, approvalRequestFromProto(req))
	if err != nil {
		return nil, err
	}
	return &pb.NeedsApprovalResponse{Reason: resp.Reason, Error: resp.Error, Problems: resp.Problems}, nil
}

package protocol_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// onceClient answers CallToolOnce with resp; it implements nothing else.
type onceClient struct {
	pb.ModClient
	resp *pb.CallToolResponse
	got  *pb.CallToolRequest
}

func (c *onceClient) CallToolOnce(_ context.Context, req *pb.CallToolRequest, _ ...grpc.CallOption) (*pb.CallToolResponse, error) {
	c.got = req
	return c.resp, nil
}

func TestGRPCClientCallToolOnce(t *testing.T) {
	t.Parallel()
	pc := &onceClient{resp: &pb.CallToolResponse{
		Activity: []*pb.Activity{{Kind: pb.ActivityKind_ACTIVITY_KIND_TITLE, Text: "t"}},
		Outcome:  &pb.Outcome{Status: pb.Status_STATUS_COMPLETED, Text: "done"},
	}}
	c := &protocol.GRPCClient{PB: pc}
	resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "x", CallID: "c1", MaxResultBytes: 9,
		Session: sdk.Session{ID: "s", Workspace: "/w"}})
	if err != nil {
		t.Fatal(err)
	}
	want := &modapi.CallResponse{Activity: []sdk.ActivityUpdate{{Kind: sdk.ActivityTitle, Text: "t"}},
		Outcome: modapi.Outcome{Status: modapi.StatusCompleted, Text: "done"}}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("got %+v, want %+v", resp, want)
	}
	if g := pc.got; g.GetTool() != "x" || g.GetCallId() != "c1" || g.GetMaxResultBytes() != 9 || g.GetSession().GetWorkspace() != "/w" {
		t.Errorf("sent %v, want the request's fields", g)
	}
	pc.resp = &pb.CallToolResponse{}
	if _, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "x"}); !errors.Is(err, modapi.ErrNoOutcome) {
		t.Errorf("no outcome: got %v, want ErrNoOutcome", err)
	}
}

package protocol_test

import (
	"context"
	"io"
	"reflect"
	"strconv"
	"testing"

	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// reportingMod's handler sends an update, waits until it is being sent,
// sends the rest in a tight loop, then closes added and completes.
type reportingMod struct {
	modapi.Mod
	updates int
	sending <-chan struct{}
	added   chan struct{}
}

func (m *reportingMod) CallTool(_ context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	for i := range m.updates {
		req.Deliver(sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: strconv.Itoa(i)})
		if i == 0 {
			<-m.sending
		}
	}
	close(m.added)
	return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted, Text: "done"}}, nil
}

// eventStream is the mod's end of a CallTool stream; its first Send
// closes sending and waits for gate, as a slow connection would.
type eventStream struct {
	grpc.ServerStream
	sending chan struct{}
	gate    <-chan struct{}
	events  []*pb.CallToolEvent
}

func (s *eventStream) Context() context.Context { return context.Background() }

func (s *eventStream) Send(ev *pb.CallToolEvent) error {
	if len(s.events) == 0 {
		close(s.sending)
		<-s.gate
	}
	s.events = append(s.events, ev)
	return nil
}

// replayClient replays events as the host's end of a CallTool stream.
type replayClient struct {
	pb.ModClient
	events []*pb.CallToolEvent
}

func (c *replayClient) CallTool(context.Context, *pb.CallToolRequest, ...grpc.CallOption) (grpc.ServerStreamingClient[pb.CallToolEvent], error) {
	return &replayStream{events: c.events}, nil
}

type replayStream struct {
	grpc.ClientStream
	events []*pb.CallToolEvent
}

func (s *replayStream) Recv() (*pb.CallToolEvent, error) {
	if len(s.events) == 0 {
		return nil, io.EOF
	}
	ev := s.events[0]
	s.events = s.events[1:]
	return ev, nil
}

// Updates sent while an earlier one is on its way travel together, in
// order, before the outcome, and the host delivers each.
func TestActivityBatches(t *testing.T) {
	t.Parallel()
	const n = 5
	sending := make(chan struct{})
	mod := &reportingMod{updates: n, sending: sending, added: make(chan struct{})}
	stream := &eventStream{sending: sending, gate: mod.added}
	if err := (&protocol.GRPCServer{Impl: mod}).CallTool(&pb.CallToolRequest{Tool: "x"}, stream); err != nil {
		t.Fatal(err)
	}
	var shape []string
	for _, ev := range stream.events {
		switch {
		case ev.GetActivity() != nil:
			shape = append(shape, "1")
		case ev.GetActivities() != nil:
			shape = append(shape, strconv.Itoa(len(ev.GetActivities().GetUpdates())))
		case ev.GetOutcome() != nil:
			shape = append(shape, "outcome")
		}
	}
	// The first update leaves alone; the rest come while it waits.
	if want := []string{"1", strconv.Itoa(n - 1), "outcome"}; !reflect.DeepEqual(shape, want) {
		t.Fatalf("got messages %v, want %v", shape, want)
	}
	var got []string
	c := &protocol.GRPCClient{PB: &replayClient{events: stream.events}}
	resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "x", OnActivity: func(u sdk.ActivityUpdate) {
		got = append(got, u.Text)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"0", "1", "2", "3", "4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got updates %v, want %v", got, want)
	}
	if resp.Outcome.Text != "done" {
		t.Errorf("got outcome %+v, want done", resp.Outcome)
	}
}

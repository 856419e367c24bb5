package protocol

import (
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// startMessages are the messages a host encodes or decodes to start a
// mod and make its first call: Describe, Activate, and the call and its
// outcome on the lane.
func startMessages() []proto.Message {
	return []proto.Message{
		&pb.DescribeRequest{}, &pb.DescribeResponse{}, &pb.ActivateRequest{}, &pb.ActivateResponse{},
		&pb.LaneCall{}, &pb.CallToolRequest{}, &pb.Session{}, &pb.LaneOutcome{}, &pb.Outcome{},
	}
}

var warmOnce sync.Once

// WarmStart readies, once per process and in the background, what the
// protobuf runtime builds for each message type on its first use (its
// encoder and decoder, by reflection: 100–300 µs a type), for the
// messages of a mod's start and first call. A host calls it as it starts a
// process, so that this is done while the process starts, rather than
// between the mod's handshake and the first call's answer.
func WarmStart() {
	warmOnce.Do(func() {
		go func() {
			for _, m := range startMessages() {
				proto.Size(m)
			}
		}()
	})
}

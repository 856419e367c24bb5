package protocol

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// TestCutSpans: an outcome's spans, its last field, are cut from the
// payload and point into it, and the rest decodes as the outcome without
// them; spans that are not the last field are left to protobuf.
func TestCutSpans(t *testing.T) {
	out := &pb.LaneOutcome{Outcome: &pb.Outcome{Text: "hi"}, Activity: []*pb.Activity{{}}, Spans: []byte("spans")}
	payload, err := proto.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	rest, spans := cutSpans(payload, outcomeSpans)
	if string(spans) != "spans" || &spans[0] != &payload[len(payload)-len("spans")] {
		t.Errorf("spans: got %q, want %q pointing into the payload", spans, "spans")
	}
	var got pb.LaneOutcome
	if err := proto.Unmarshal(rest, &got); err != nil || got.GetOutcome().GetText() != "hi" || len(got.GetActivity()) != 1 || got.Spans != nil {
		t.Errorf("the rest: got %v (%v), want the outcome and activity, no spans", &got, err)
	}
	// The last of repeated spans wins, as protobuf decodes it.
	twice := append(append([]byte(nil), payload...), payload[len(rest):]...)
	twice[len(twice)-1] = 'S'
	if _, spans := cutSpans(twice, outcomeSpans); string(spans) != "spanS" {
		t.Errorf("repeated spans: got %q, want the last, %q", spans, "spanS")
	}
	stopped, err := proto.Marshal(&pb.LaneOutcome{Spans: []byte("spans"), Stopped: &pb.LaneStopped{Refusal: "no"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, msg := range map[string][]byte{"stopped after the spans": stopped, "malformed": {0xff}, "empty": nil} {
		if rest, spans := cutSpans(msg, outcomeSpans); spans != nil || len(rest) != len(msg) {
			t.Errorf("%s: got %d bytes left and spans %q, want the payload whole and no spans", name, len(rest), spans)
		}
	}
}

package protocol

import (
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// TestStartMessages checks that WarmStart readies the messages of a
// start and a first call: Describe's and Activate's requests and
// responses, the lane's call and outcome, and the messages a plain call
// sets inside them.
func TestStartMessages(t *testing.T) {
	t.Parallel()
	got := map[protoreflect.FullName]bool{}
	for _, m := range startMessages() {
		got[m.ProtoReflect().Descriptor().FullName()] = true
	}
	mod := pb.File_modkit_proto.Services().ByName("Mod")
	var want []protoreflect.MessageDescriptor
	for _, name := range []protoreflect.Name{"Describe", "Activate"} {
		md := mod.Methods().ByName(name)
		if md == nil {
			t.Fatalf("no method %s in service Mod", name)
		}
		want = append(want, md.Input(), md.Output())
	}
	call, outcome := (&pb.LaneCall{}).ProtoReflect().Descriptor(), (&pb.LaneOutcome{}).ProtoReflect().Descriptor()
	request := call.Fields().ByName("request").Message()
	want = append(want, call, request, request.Fields().ByName("session").Message(),
		outcome, outcome.Fields().ByName("outcome").Message())
	for _, d := range want {
		if !got[d.FullName()] {
			t.Errorf("WarmStart leaves out %s", d.FullName())
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d messages to warm, want %d", len(got), len(want))
	}
	WarmStart()
	WarmStart() // once per process
}

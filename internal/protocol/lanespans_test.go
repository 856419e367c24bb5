package protocol

import (
	"strings"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
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

// TestMoveField: a call's traceparent moves to the payload's end and is
// read there, and the rest decodes as the call without it; a frame the
// move cannot judge is left whole, to protobuf.
func TestMoveField(t *testing.T) {
	const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	call := &pb.LaneCall{Request: &pb.CallToolRequest{Tool: "echo"}, Live: true, Traceparent: tp, Tracestate: "k=v", Check: true}
	payload, err := proto.Marshal(call)
	if err != nil {
		t.Fatal(err)
	}
	rest, v, ok := moveField(payload, callTraceparent)
	if !ok || v != tp || unsafe.StringData(v) != &payload[len(payload)-len(tp)] {
		t.Errorf("got %q (ok %v), want %q pointing into the payload's end", v, ok, tp)
	}
	var got pb.LaneCall
	if err := proto.Unmarshal(rest, &got); err != nil {
		t.Fatal(err)
	}
	got.Traceparent = v
	if !proto.Equal(&got, call) {
		t.Errorf("the rest and the traceparent: got %v, want %v", &got, call)
	}
	twice := append(append([]byte(nil), payload[:len(rest)]...), payload[len(rest):]...)
	twice = append(twice, payload[len(rest):]...)
	for name, msg := range map[string][]byte{
		"twice":     twice,
		"not UTF-8": protowire.AppendString(protowire.AppendTag(nil, callTraceparent, protowire.BytesType), "\xff"),
		"a varint":  protowire.AppendVarint(protowire.AppendTag(nil, callTraceparent, protowire.VarintType), 1),
		"too long":  protowire.AppendString(protowire.AppendTag(nil, callTraceparent, protowire.BytesType), strings.Repeat("0", maxMoved)),
		"absent":    protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), 1),
		"malformed": {0xff},
		"empty":     nil,
	} {
		before := string(msg)
		if rest, v, ok := moveField(msg, callTraceparent); ok || v != "" || string(rest) != before || string(msg) != before {
			t.Errorf("%s: got %x, %q, %v, want the payload whole and untouched", name, rest, v, ok)
		}
	}
}

// FuzzMoveField: whatever the payload, the rest and the moved field
// decode as the payload does, or the payload is left whole to protobuf.
func FuzzMoveField(f *testing.F) {
	for _, c := range []*pb.LaneCall{
		{Request: &pb.CallToolRequest{Tool: "echo"}, Traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", Baggage: "b=1"},
		{Traceparent: "x", Hook: &pb.BeforeActionRequest{}, HookTimeoutMillis: 5},
		{Live: true},
	} {
		b, err := proto.Marshal(c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		var want pb.LaneCall
		werr := proto.Unmarshal(msg, &want)
		orig := string(msg)
		rest, v, ok := moveField(msg, callTraceparent)
		if !ok {
			if string(rest) != orig || string(msg) != orig || v != "" {
				t.Fatalf("%x: not moved, but the payload changed", orig)
			}
			return
		}
		var got pb.LaneCall
		err := proto.Unmarshal(rest, &got)
		if (err != nil) != (werr != nil) {
			t.Fatalf("%x: got error %v, want %v", orig, err, werr)
		}
		if err != nil {
			return
		}
		if got.Traceparent != "" {
			t.Fatalf("%x: the rest still has a traceparent, %q", orig, got.Traceparent)
		}
		got.Traceparent = v
		if !proto.Equal(&got, &want) {
			t.Fatalf("%x: got %v, want %v", orig, &got, &want)
		}
	})
}

// TestHasMessage: an outcome frame's outcome is decoded into the reused
// message only when protobuf would decode one: the field with a message's
// wire type, wherever it comes, even empty; under another type it is an
// unknown field.
func TestHasMessage(t *testing.T) {
	empty, err := proto.Marshal(&pb.LaneOutcome{Outcome: &pb.Outcome{}, Spans: []byte("s")})
	if err != nil {
		t.Fatal(err)
	}
	varint := protowire.AppendVarint(protowire.AppendTag(nil, outcomeOutcome, protowire.VarintType), 1)
	after := protowire.AppendBytes(protowire.AppendTag(varint, outcomeOutcome, protowire.BytesType), nil)
	for _, c := range []struct {
		name string
		msg  []byte
		want bool
	}{
		{"none", nil, false},
		{"empty outcome", empty, true},
		{"varint", varint, false},
		{"varint then message", after, true},
	} {
		if got := hasMessage(c.msg, outcomeOutcome); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
		var o pb.LaneOutcome
		if err := proto.Unmarshal(c.msg, &o); err == nil && (o.Outcome != nil) != c.want {
			t.Errorf("%s: protobuf decodes an outcome: %v, want %v", c.name, o.Outcome != nil, c.want)
		}
	}
}

// FuzzHasMessage: for every payload protobuf decodes as an outcome frame,
// hasMessage says whether the decoded frame has an outcome.
func FuzzHasMessage(f *testing.F) {
	for _, o := range []*pb.LaneOutcome{
		{Outcome: &pb.Outcome{}, Spans: []byte("s")},
		{Outcome: &pb.Outcome{Status: pb.Status_STATUS_COMPLETED, Text: "done"}, Activity: []*pb.Activity{{}}},
		{Spans: []byte("only spans")},
	} {
		b, err := proto.Marshal(o)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		var o pb.LaneOutcome
		if err := proto.Unmarshal(msg, &o); err != nil {
			return
		}
		if got := hasMessage(msg, outcomeOutcome); got != (o.Outcome != nil) {
			t.Fatalf("%x: hasMessage %v, protobuf decodes an outcome: %v", msg, got, o.Outcome != nil)
		}
	})
}

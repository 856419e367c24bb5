package protocol

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

func TestAppendActivityBatch(t *testing.T) {
	for _, u := range []sdk.ActivityUpdate{
		{Kind: sdk.ActivityLog, Text: "step 1"},
		{Kind: sdk.ActivityTitle, Text: "Counting"},
		{Kind: sdk.ActivityStatus},
		{Kind: sdk.ActivityLog, Text: string(make([]byte, 300))},
		{Kind: sdk.ActivityLog, Text: strings.Repeat("x", maxShortText)},
		{Kind: sdk.ActivityStatus, Text: strings.Repeat("x", maxShortText+1)},
		{Kind: sdk.ActivityTitle, Text: "é"},
		{Text: "no kind"},
		{},
	} {
		got, err := appendActivityBatch([]byte("x"), u)
		if err != nil {
			t.Fatalf("%+v: %v", u, err)
		}
		want, err := proto.Marshal(&pb.ActivityBatch{Updates: []*pb.Activity{ActivityToProto(u)}})
		if err != nil {
			t.Fatal(err)
		}
		if string(got[1:]) != string(want) || got[0] != 'x' {
			t.Errorf("%+v: got %x, want x then %x", u, got, want)
		}
		back, err := decodeActivityBatch(got[1:], nil)
		if err != nil || len(back) != 1 || back[0] != u {
			t.Errorf("%+v: decoded %+v, %v", u, back, err)
		}
	}
	if _, err := appendActivityBatch(nil, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "\xff"}); err == nil {
		t.Error("text that is not UTF-8: got no error, want one, as proto.Marshal refuses it")
	}
}

// FuzzActivityBatch checks that decodeActivityBatch accepts what
// proto.Unmarshal accepts, with the same updates, and refuses the rest.
func FuzzActivityBatch(f *testing.F) {
	two, _ := proto.Marshal(&pb.ActivityBatch{Updates: []*pb.Activity{
		{Kind: pb.ActivityKind_ACTIVITY_KIND_LOG, Text: "a"}, {Kind: pb.ActivityKind_ACTIVITY_KIND_TITLE, Text: "T"}}})
	f.Add(two)
	f.Add([]byte{})
	f.Add([]byte{0x0a, 0x02, 0x12, 0x01})                               // truncated text
	f.Add([]byte{0x0a, 0x03, 0x12, 0x01, 0xff})                         // text not UTF-8
	f.Add([]byte{0x0a, 0x04, 0x08, 0x09, 0x08, 0x03})                   // kind twice, unknown then log
	f.Add([]byte{0x08, 0x01, 0x0a, 0x02, 0x10, 0x01})                   // unknown fields
	f.Add([]byte{0x0a, 0x03, 0x0b, 0x0c, 0x00})                         // a group in an update
	f.Add([]byte{0x0a, 0x02, 0x0a, 0x00, 0x0a, 0x01, 0x08})             // kind as bytes, then truncated
	f.Add([]byte{0x0a, 0x04, 0x08, 0x03, 0x12, 0x00})                   // short form, empty text
	f.Add([]byte{0x0a, 0x05, 0x08, 0x03, 0x12, 0x01, 0xff})             // short form, text not UTF-8
	f.Add([]byte{0x0a, 0x05, 0x08, 0x03, 0x12, 0x01})                   // short form, truncated
	f.Add([]byte{0x0a, 0x06, 0x08, 0x03, 0x12, 0x01, 0x61, 0x18, 0x01}) // short form, then a field
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := decodeActivityBatch(b, nil)
		var m pb.ActivityBatch
		werr := proto.Unmarshal(b, &m)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%x: got error %v, proto.Unmarshal's %v", b, err, werr)
		}
		if cerr := eachActivity(b, nil); (cerr == nil) != (err == nil) {
			t.Fatalf("%x: checking alone: got error %v, decoding's %v", b, cerr, err)
		}
		if err != nil {
			return
		}
		if len(got) != len(m.GetUpdates()) {
			t.Fatalf("%x: got %d updates, want %d", b, len(got), len(m.GetUpdates()))
		}
		for i, a := range m.GetUpdates() {
			if want := ActivityFromProto(a); got[i] != want {
				t.Errorf("%x: update %d: got %+v, want %+v", b, i, got[i], want)
			}
		}
	})
}

// FuzzAppendActivity checks that an update is encoded as proto.Marshal
// encodes it, in the short form or not, and refused when proto.Marshal
// refuses it.
func FuzzAppendActivity(f *testing.F) {
	f.Add(uint8(3), "step 1")
	f.Add(uint8(1), strings.Repeat("é", 62))
	f.Add(uint8(2), strings.Repeat("x", maxShortText+1))
	f.Add(uint8(0), "no kind")
	f.Add(uint8(3), "")
	f.Add(uint8(3), "a\xff")
	kinds := []sdk.ActivityKind{"", sdk.ActivityTitle, sdk.ActivityStatus, sdk.ActivityLog, "other"}
	f.Fuzz(func(t *testing.T, k uint8, text string) {
		u := sdk.ActivityUpdate{Kind: kinds[int(k)%len(kinds)], Text: text}
		got, err := appendActivityBatch(nil, u)
		want, werr := proto.Marshal(&pb.ActivityBatch{Updates: []*pb.Activity{ActivityToProto(u)}})
		if (err == nil) != (werr == nil) {
			t.Fatalf("%+v: got error %v, proto.Marshal's %v", u, err, werr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("%+v: got %x, want %x", u, got, want)
		}
	})
}

// FuzzShortValid checks shortValid and shortValidBytes against the
// utf8 package.
func FuzzShortValid(f *testing.F) {
	for _, s := range []string{"", "step 1", "é", "a\xff", "ab\xc3", "\xed\xa0\x80", strings.Repeat("x", 20) + "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := utf8.ValidString(s)
		if got := shortValid(s); got != want {
			t.Errorf("shortValid(%q): got %v, want %v", s, got, want)
		}
		if got := shortValidBytes([]byte(s)); got != want {
			t.Errorf("shortValidBytes(%q): got %v, want %v", s, got, want)
		}
	})
}

// TestShortActivity checks that the updates the mod writes with texts
// under 124 bytes, those of nearly every batch, are read by
// shortActivity, and the rest by the general decoder.
func TestShortActivity(t *testing.T) {
	for _, c := range []struct {
		u     sdk.ActivityUpdate
		short bool
	}{
		{sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "step 1"}, true},
		{sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: strings.Repeat("é", 61)}, true},
		{sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: strings.Repeat("x", 124)}, false},
		{sdk.ActivityUpdate{Kind: sdk.ActivityStatus}, false},
		{sdk.ActivityUpdate{Text: "no kind"}, false},
	} {
		b, err := appendActivityBatch(nil, c.u)
		if err != nil {
			t.Fatal(err)
		}
		kind, from, to, ok := shortActivity(b)
		if ok != c.short {
			t.Errorf("%+v: got short %v, want %v", c.u, ok, c.short)
			continue
		}
		if ok && (kindFromProto(kind) != c.u.Kind || string(b[from:to]) != c.u.Text || to != len(b)) {
			t.Errorf("%+v: got kind %v, text %q, end %d; want the update, end %d", c.u, kind, b[from:to], to, len(b))
		}
		if got, err := decodeActivityBatch(b, nil); err != nil || len(got) != 1 || got[0] != c.u {
			t.Errorf("%+v: decoded %+v, %v", c.u, got, err)
		}
	}
}

// TestEachActivityAllocs checks that the updates of a batch reach their
// callback without an allocation, whatever the batch's length: the texts
// point into the frame's payload.
func TestEachActivityAllocs(t *testing.T) {
	var b []byte
	for i := range 10 {
		var err error
		if b, err = appendActivityBatch(b, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "step " + string(rune('0'+i))}); err != nil {
			t.Fatal(err)
		}
	}
	var last sdk.ActivityUpdate
	n := 0
	see := func(u sdk.ActivityUpdate) { last, n = u, n+1 }
	if err := eachActivity(b, see); err != nil || n != 10 || last.Text != "step 9" || last.Kind != sdk.ActivityLog {
		t.Fatalf("got %d updates, the last %+v, %v; want 10 log updates, the last step 9", n, last, err)
	}
	if raceEnabled {
		t.Skip("the race detector adds allocations")
	}
	if got := testing.AllocsPerRun(100, func() { eachActivity(b, see) }); got > 0 {
		t.Errorf("got %v allocations per batch of 10, want none", got)
	}
	if got := testing.AllocsPerRun(100, func() { eachActivity(b, nil) }); got > 0 {
		t.Errorf("checking a batch: got %v allocations, want none", got)
	}
}

// TestPostActivityEncoding checks that updates posted one by one wait as
// the frames appendFrame makes of their batches, byte for byte: one frame
// for a call's updates in a row, a new one after another call's; that text
// which is not UTF-8, and an update over the limit, are refused with
// nothing queued.
func TestPostActivityEncoding(t *testing.T) {
	fw := &frameWriter{w: io.Discard, limit: 1 << 10, flusher: true}
	a := sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: "Searching"}
	b := sdk.ActivityUpdate{Kind: sdk.ActivityLog}   // no text
	c := sdk.ActivityUpdate{Kind: "mood", Text: "é"} // an unknown kind
	d := sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: "2 of 3"}
	for _, p := range []struct {
		id uint64
		u  sdk.ActivityUpdate
	}{{1, a}, {1, b}, {2, c}, {1, d}} {
		if err := fw.postActivity(p.id, p.u); err != nil {
			t.Fatal(err)
		}
	}
	want := string(activityFrame(t, 1, a, b)) + string(activityFrame(t, 2, c)) + string(activityFrame(t, 1, d))
	if string(fw.pending) != want {
		t.Errorf("got pending %x\nwant %x", fw.pending, want)
	}
	if err := fw.postActivity(1, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "\xff"}); !errors.Is(err, errActivityUTF8) {
		t.Errorf("text not UTF-8: got %v, want %v", err, errActivityUTF8)
	}
	var big *payloadTooLargeError
	if err := fw.postActivity(1, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: strings.Repeat("x", 1<<10)}); !errors.As(err, &big) {
		t.Errorf("an update over the limit: got %v, want a payloadTooLargeError", err)
	}
	if string(fw.pending) != want {
		t.Error("a refused update changed the pending bytes")
	}
}

// TestPostActivityAllocs checks that posting an update allocates nothing
// once the pending bytes have room: it is encoded straight into them.
func TestPostActivityAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector adds allocations")
	}
	fw := &frameWriter{w: io.Discard, limit: 1 << 10, flusher: true, pending: make([]byte, 0, 4096)}
	d := sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: "2 of 3"}
	if got := testing.AllocsPerRun(100, func() {
		fw.pending, fw.lastAct = fw.pending[:0], 0
		for range 10 {
			_ = fw.postActivity(1, d)
		}
	}); got > 0 {
		t.Errorf("got %v allocations for 10 posts, want none", got)
	}
}

// TestActivityTextsOutliveReads checks that the texts of a delivered
// update, which point into their frame's payload, stay as they were while
// the frame reader reads on: it never reuses a payload.
func TestActivityTextsOutliveReads(t *testing.T) {
	var lane bytes.Buffer
	fw := &frameWriter{w: &lane, limit: 1 << 10, flusher: true}
	for _, text := range []string{"step 1", "step 2"} { // alike in length, as a reused buffer would be
		if err := fw.postActivity(1, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: text}); err != nil {
			t.Fatal(err)
		}
		if err := fw.send(1, kindCancel, nil); err != nil { // ends the frame
			t.Fatal(err)
		}
	}
	fr := newFrameReader(&lane, 1<<10)
	var texts []string
	for range 4 {
		_, kind, payload, err := fr.next()
		if err != nil {
			t.Fatal(err)
		}
		if kind == kindActivity {
			if err := eachActivity(payload, func(u sdk.ActivityUpdate) { texts = append(texts, u.Text) }); err != nil {
				t.Fatal(err)
			}
		}
	}
	if strings.Join(texts, ",") != "step 1,step 2" {
		t.Errorf("got texts %q after reading on, want step 1, step 2", texts)
	}
}

// BenchmarkActivityPost measures what a live call's ten activity updates
// cost each side's lane code, without the lane: the mod posting them and
// sending the outcome behind them (one write, to io.Discard), and the host
// handling the activity frame they make.
//
//	go test ./internal/protocol -run '^$' -bench ActivityPost -benchmem
func BenchmarkActivityPost(b *testing.B) {
	texts := make([]string, 10)
	for i := range texts {
		texts[i] = "step " + strconv.Itoa(i+1)
	}
	out := &pb.LaneOutcome{Outcome: &pb.Outcome{Status: pb.Status_STATUS_COMPLETED, Text: "done"}}
	b.Run("mod", func(b *testing.B) {
		fw := &frameWriter{w: io.Discard, limit: 1 << 20}
		for b.Loop() {
			for _, t := range texts {
				if err := fw.postActivity(7, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: t}); err != nil {
					b.Fatal(err)
				}
			}
			if err := fw.send(7, kindOutcome, out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("host", func(b *testing.B) {
		var batch []byte
		for _, t := range texts {
			batch, _ = appendActivityBatch(batch, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: t})
		}
		n := 0
		req := &modapi.CallRequest{OnActivity: func(sdk.ActivityUpdate) { n++ }}
		c, _ := rawLane(b, LaneOptions{})
		f := laneFrame{kind: kindActivity, payload: batch}
		for b.Loop() {
			if _, err, end := c.handle(req, f); err != nil || end {
				b.Fatal(err, end)
			}
		}
		if n != 10*b.N {
			b.Fatalf("got %d updates, want %d", n, 10*b.N)
		}
	})
}

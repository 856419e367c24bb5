package protocol

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

func TestFrameRoundTrip(t *testing.T) {
	t.Parallel()
	var buf []byte
	var err error
	msg := &pb.LaneFailure{Message: "why"}
	if buf, err = appendFrame(buf, 7, kindFailure, msg, 100); err != nil {
		t.Fatal(err)
	}
	if buf, err = appendFrame(buf, 1<<40, kindCancel, nil, 100); err != nil {
		t.Fatal(err)
	}
	fr := newFrameReader(bytes.NewReader(buf), 100)
	id, kind, payload, err := fr.next()
	if err != nil || id != 7 || kind != kindFailure {
		t.Fatalf("got id %d, kind %s, error %v; want 7, failure, nil", id, kind, err)
	}
	var got pb.LaneFailure
	if err := proto.Unmarshal(payload, &got); err != nil || got.GetMessage() != "why" {
		t.Errorf("got payload %v (%v), want message %q", &got, err, "why")
	}
	id, kind, payload, err = fr.next()
	if err != nil || id != 1<<40 || kind != kindCancel || len(payload) != 0 {
		t.Fatalf("got id %d, kind %s, %d bytes, error %v; want %d, cancel, none", id, kind, len(payload), err, uint64(1<<40))
	}
	if _, _, _, err := fr.next(); err != io.EOF {
		t.Errorf("after the last frame: got %v, want io.EOF", err)
	}
}

// TestFrameOverLimit checks that a frame over the reader's limit is
// skipped without being allocated, and the next one reads.
func TestFrameOverLimit(t *testing.T) {
	t.Parallel()
	big := &pb.LaneFailure{Message: strings.Repeat("x", 200)}
	buf, err := appendFrame(nil, 3, kindOutcome, big, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if buf, err = appendFrame(buf, 4, kindCancel, nil, 1000); err != nil {
		t.Fatal(err)
	}
	fr := newFrameReader(bytes.NewReader(buf), 100)
	id, kind, payload, err := fr.next()
	var tooLarge *frameTooLargeError
	if !errors.As(err, &tooLarge) || id != 3 || kind != kindOutcome || payload != nil {
		t.Fatalf("got id %d, kind %s, %d bytes, error %v; want 3, outcome, none, over the limit", id, kind, len(payload), err)
	}
	if want := "outcome frame is 203 bytes, over the 100-byte message limit"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if id, kind, _, err := fr.next(); err != nil || id != 4 || kind != kindCancel {
		t.Errorf("next frame: got id %d, kind %s, error %v; want 4, cancel, nil", id, kind, err)
	}
	// A writer refuses to send as much.
	if _, err := appendFrame(nil, 1, kindOutcome, big, 100); err == nil || err.Error() != "203 bytes, over the 100-byte message limit" {
		t.Errorf("writing over the limit: got %v, want the size and the limit", err)
	}
}

// TestFrameHugeLength checks that a length of 4 GiB from the wire is
// neither allocated nor trusted: the stream ends first.
func TestFrameHugeLength(t *testing.T) {
	t.Parallel()
	hdr := make([]byte, frameHeaderLen)
	binary.BigEndian.PutUint32(hdr, 1<<32-1)
	hdr[12] = byte(kindOutcome)
	fr := newFrameReader(bytes.NewReader(append(hdr, "short"...)), 1<<20)
	if _, _, _, err := fr.next(); err != io.ErrUnexpectedEOF {
		t.Errorf("got %v, want io.ErrUnexpectedEOF", err)
	}
	fr = newFrameReader(bytes.NewReader(hdr[:5]), 1<<20)
	if _, _, _, err := fr.next(); err != io.ErrUnexpectedEOF {
		t.Errorf("cut header: got %v, want io.ErrUnexpectedEOF", err)
	}
}

// FuzzFrameReader reads arbitrary bytes as frames: no panic, no payload
// over the limit, and the reader ends.
func FuzzFrameReader(f *testing.F) {
	good, _ := appendFrame(nil, 1, kindOutcome, &pb.LaneOutcome{Outcome: &pb.Outcome{Text: "hi"}}, 1<<10)
	f.Add(good)
	f.Add(append(good, good[:7]...))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 1, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := newFrameReader(bytes.NewReader(data), 64)
		for range len(data) + 1 {
			_, _, payload, err := fr.next()
			if len(payload) > 64 {
				t.Fatalf("got a %d-byte payload over the 64-byte limit", len(payload))
			}
			var tooLarge *frameTooLargeError
			if err != nil && !errors.As(err, &tooLarge) {
				return
			}
		}
		t.Fatal("the reader did not end")
	})
}

// TestFrameWriterConcurrent checks that frames sent at once by many
// goroutines arrive whole, each goroutine's in the order it sent them.
func TestFrameWriterConcurrent(t *testing.T) {
	t.Parallel()
	a, b := net.Pipe()
	defer a.Close()
	fw := &frameWriter{w: a, limit: 1 << 10}
	const senders, each = 8, 50
	go func() {
		var wg sync.WaitGroup
		for s := range senders {
			wg.Go(func() {
				for i := range each {
					if err := fw.send(uint64(s), kindFailure, &pb.LaneFailure{Message: strconv.Itoa(i)}); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
	}()
	fr := newFrameReader(b, 1<<10)
	next := make([]int, senders)
	for range senders * each {
		id, _, payload, err := fr.next()
		if err != nil {
			t.Fatal(err)
		}
		var m pb.LaneFailure
		if err := proto.Unmarshal(payload, &m); err != nil || m.GetMessage() != strconv.Itoa(next[id]) {
			t.Fatalf("sender %d: got frame %q (%v), want %d", id, m.GetMessage(), err, next[id])
		}
		next[id]++
	}
}

// TestFrameWriterPostMerges checks that activity frames posted while a
// write waits leave as one frame per call, under the size limit, in order
// and before the outcome sent after them.
func TestFrameWriterPostMerges(t *testing.T) {
	t.Parallel()
	update := func(i int) sdk.ActivityUpdate { return sdk.ActivityUpdate{Text: strconv.Itoa(i)} }
	one, err := proto.Marshal(&pb.ActivityBatch{Updates: []*pb.Activity{ActivityToProto(update(10))}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		limit     int
		maxFrames int // activity frames of call 1 at most
	}{
		// The first leaves alone (its write waits for the reader); the
		// next 19 merge into one frame; the last comes after call 2's.
		{"unlimited", 1 << 20, 3},
		// Three updates fit a frame.
		{"limited", 3 * len(one), 1 + 19/3 + 1 + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := net.Pipe()
			defer a.Close()
			defer b.Close()
			fw := &frameWriter{w: a, limit: tc.limit}
			const n = 20
			// Nothing reads until every frame is queued: no post waits.
			for i := range n {
				if err := fw.postActivity(1, update(i)); err != nil {
					t.Fatal(err)
				}
			}
			// Another call's frame ends the merging; call 1's next frame
			// does not go before it.
			if err := fw.postActivity(2, update(100)); err != nil {
				t.Fatal(err)
			}
			if err := fw.postActivity(1, update(n)); err != nil {
				t.Fatal(err)
			}
			go fw.send(1, kindOutcome, &pb.LaneOutcome{})
			fr := newFrameReader(b, tc.limit)
			var got []string
			frames := 0
			for {
				id, kind, payload, err := fr.next()
				if err != nil {
					t.Fatal(err)
				}
				if id != 1 {
					continue
				}
				if kind == kindOutcome {
					break
				}
				frames++
				var batch pb.ActivityBatch
				if err := proto.Unmarshal(payload, &batch); err != nil {
					t.Fatal(err)
				}
				for _, u := range batch.GetUpdates() {
					got = append(got, u.GetText())
				}
			}
			want := make([]string, n+1)
			for i := range want {
				want[i] = strconv.Itoa(i)
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("got updates %v before the outcome, want %v", got, want)
			}
			if frames > tc.maxFrames {
				t.Errorf("got %d activity frames for %d updates, want at most %d", frames, n, tc.maxFrames)
			}
		})
	}
}

// writeRecorder records each write as one string.
type writeRecorder struct {
	mu     sync.Mutex
	writes []string
}

func (w *writeRecorder) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(b))
	return len(b), nil
}

// postedWriter returns a frame writer as postActivity leaves it before
// the flusher wakes: one activity frame, act, queued for the flusher.
func postedWriter(t *testing.T) (*writeRecorder, *frameWriter, []byte) {
	t.Helper()
	rec := &writeRecorder{}
	// As if the flusher ran already: the test plays its part.
	fw := &frameWriter{w: rec, limit: 1 << 20, flusher: true}
	u := sdk.ActivityUpdate{Text: "step"}
	if err := fw.postActivity(1, u); err != nil {
		t.Fatal(err)
	}
	return rec, fw, activityFrame(t, 1, u)
}

// activityFrame is the activity frame of call id carrying us, as
// appendFrame would encode a pb.ActivityBatch holding them.
func activityFrame(t *testing.T, id uint64, us ...sdk.ActivityUpdate) []byte {
	t.Helper()
	batch := &pb.ActivityBatch{}
	for _, u := range us {
		batch.Updates = append(batch.Updates, ActivityToProto(u))
	}
	b, err := appendFrame(nil, id, kindActivity, batch, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFrameWriterSendTakesPosted checks that an outcome sent while posted
// activity waits for the flusher leaves with that activity, first and in
// one write; that the flusher, when it wakes, writes nothing; and that it
// ends once a delay passes with nothing posted.
func TestFrameWriterSendTakesPosted(t *testing.T) {
	t.Parallel()
	rec, fw, act := postedWriter(t)
	if err := fw.send(1, kindOutcome, &pb.LaneOutcome{}); err != nil {
		t.Fatal(err)
	}
	if wrote, more := fw.flushPosted(); wrote || !more {
		t.Errorf("the flusher after a delay with a post: got wrote %v, goes on %v; want nothing written, goes on", wrote, more)
	}
	out, err := appendFrame(nil, 1, kindOutcome, &pb.LaneOutcome{}, fw.limit)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{string(act) + string(out)}; len(rec.writes) != 1 || rec.writes[0] != want[0] {
		t.Errorf("got writes %q, want %q", rec.writes, want)
	}
	if _, more := fw.flushPosted(); more || fw.flusher {
		t.Error("the flusher goes on after a delay with no post, want it to end")
	}
	if fw.flushing || len(fw.pending) > 0 {
		t.Errorf("got flushing %v, %d bytes pending after the writes, want none", fw.flushing, len(fw.pending))
	}
}

// TestFrameWriterFlusherWrites checks that the flusher writes activity no
// frame took along, and says so: it then wakes sooner.
func TestFrameWriterFlusherWrites(t *testing.T) {
	t.Parallel()
	rec, fw, act := postedWriter(t)
	if wrote, more := fw.flushPosted(); !wrote || !more {
		t.Errorf("got wrote %v, goes on %v; want written, goes on", wrote, more)
	}
	if len(rec.writes) != 1 || rec.writes[0] != string(act) {
		t.Errorf("got writes %q, want the activity frame", rec.writes)
	}
}

// TestFrameWriterFlushesWhileHandlerBlocks checks that activity posted by
// a call whose handler then blocks is written without any frame sent
// after it: the flusher writes it.
func TestFrameWriterFlushesWhileHandlerBlocks(t *testing.T) {
	t.Parallel()
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	fw := &frameWriter{w: a, limit: 1 << 20}
	for i := range 3 {
		if err := fw.postActivity(1, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing more is sent: the updates must arrive all the same.
	fr := newFrameReader(b, 1<<20)
	var got []string
	for len(got) < 3 {
		id, kind, payload, err := fr.next()
		if err != nil {
			t.Fatal(err)
		}
		if id != 1 || kind != kindActivity {
			t.Fatalf("got a %s frame for call %d, want activity for call 1", kind, id)
		}
		updates, err := decodeActivityBatch(payload, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range updates {
			got = append(got, u.Text)
		}
	}
	if strings.Join(got, ",") != "0,1,2" {
		t.Errorf("got updates %v, want 0,1,2", got)
	}
}

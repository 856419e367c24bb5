package modtrace

import (
	"context"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// TestEncodedIsASpanBatch checks that the spans a call lane's outcome
// carries decode as the SpanBatch of the spans recorded, in order, and
// that they are taken: the next outcome carries none.
func TestEncodedIsASpanBatch(t *testing.T) {
	rec := NewRecorder()
	ctx := LaneIncoming(context.Background(), rec, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "k=v", "")
	var want []*pb.Span
	for _, name := range []string{"run_hooks tool_call", "run_tool echo", "an author's span with a longer name than the others"} {
		_, s := Start(ctx, "scope", name, KindServer, String("gen_ai.tool.name", "echo"), Int("n", 7))
		s.SetStatus(StatusError, "failed")
		s.Edit(func(p *pb.Span) { want = append(want, proto.Clone(p).(*pb.Span)) })
		s.End(time.Unix(1_700_000_000, 0))
		want[len(want)-1].EndUnixNano = uint64(time.Unix(1_700_000_000, 0).UnixNano())
	}
	raw := LaneSpans(nil, rec)
	var got pb.SpanBatch
	if err := proto.Unmarshal(raw, &got); err != nil {
		t.Fatalf("the lane's spans do not decode as a SpanBatch: %v", err)
	}
	if len(got.Spans) != len(want) {
		t.Fatalf("got %d spans, want %d", len(got.Spans), len(want))
	}
	for i := range want {
		if !proto.Equal(got.Spans[i], want[i]) {
			t.Errorf("span %d: got %v, want %v", i, got.Spans[i], want[i])
		}
	}
	if b, err := proto.Marshal(&pb.SpanBatch{Spans: want}); err != nil || string(b) != string(raw) {
		t.Errorf("the encoding differs from proto.Marshal's of the same batch (err %v)", err)
	}
	if raw := LaneSpans(nil, rec); raw != nil {
		t.Errorf("a second LaneSpans: got %d bytes, want none", len(raw))
	}
	md := trailer(rec)
	if md != nil {
		t.Errorf("a trailer with no spans pending: got %v, want none", md)
	}
}

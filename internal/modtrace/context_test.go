package modtrace

import (
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
)

func TestParseTraceparent(t *testing.T) {
	const good = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	sc, ok := ParseTraceparent(good)
	if !ok || !sc.Sampled() || sc.Traceparent() != good {
		t.Fatalf("ParseTraceparent(%q) = %+v, %v", good, sc, ok)
	}
	if sc, ok := ParseTraceparent("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00-later"); !ok || sc.Sampled() {
		t.Errorf("a later version's longer header: %+v, %v", sc, ok)
	}
	for _, bad := range []string{
		"",
		good + "-",            // version 00 is exactly 55 bytes
		"ff" + good[2:],       // version ff is invalid
		strings.ToUpper(good), // upper-case hex
		"00-00000000000000000000000000000000-b7ad6b7169203331-01",
		"00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
		"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0g",
		"00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
		"01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",
	} {
		if sc, ok := ParseTraceparent(bad); ok {
			t.Errorf("ParseTraceparent(%q) = %+v, want refused", bad, sc)
		}
	}
}

// TestIncoming: the metadata the host sends is the handler's trace
// context, tracestate and baggage included.
func TestIncoming(t *testing.T) {
	md := metadata.MD{
		KeyTraceparent: {"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
		KeyTracestate:  {"vendor=value"},
		KeyBaggage:     {"user=ada"},
	}
	rec := NewRecorder()
	sc, got, ok := FromContext(Incoming(metadata.NewIncomingContext(context.Background(), md), rec))
	if !ok || got != rec || sc.Traceparent() != md[KeyTraceparent][0] || sc.TraceState != "vendor=value" || sc.Baggage != "user=ada" {
		t.Errorf("Incoming read %+v (recorder %p, %v), want the metadata's, recorder %p", sc, got, ok, rec)
	}
	md[KeyTraceparent] = []string{"garbage"}
	if _, _, ok := FromContext(Incoming(metadata.NewIncomingContext(context.Background(), md), rec)); ok {
		t.Error("a malformed traceparent made a traced context")
	}
}

// TestSpansUnderTheHostsSpan: spans started under the host's span, the
// first in the room beside its context and the next in a context of its
// own, each carry their own span, under the host's, and leave the host's
// context as it was.
func TestSpansUnderTheHostsSpan(t *testing.T) {
	const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	rec := NewRecorder()
	host := LaneIncoming(context.Background(), rec, tp, "k=v", "b=1")
	var ctxs []context.Context
	var spans []*Span
	for range 3 {
		ctx, s := Start(host, "scope", "child", KindServer)
		ctxs, spans = append(ctxs, ctx), append(spans, s)
	}
	grand, _ := StartReused(ctxs[0], "scope", "grandchild", KindInternal)
	for i, ctx := range ctxs {
		sc, got, ok := FromContext(ctx)
		if !ok || got != rec || sc != spans[i].Context() || sc.Traceparent()[:36] != tp[:36] || sc.TraceState != "k=v" || sc.Baggage != "b=1" {
			t.Errorf("span %d's context: got %+v (recorder %p, %v), want %+v of recorder %p", i, sc, got, ok, spans[i].Context(), rec)
		}
		if ctx == host || (i > 0 && ctx == ctxs[i-1]) {
			t.Errorf("span %d's context is another's", i)
		}
	}
	if sc, _, _ := FromContext(grand); sc.SpanID == spans[0].Context().SpanID || sc.TraceID != spans[0].Context().TraceID {
		t.Errorf("a span under the first: got %+v, want a span of its own in the same trace", sc)
	}
	if sc, _, _ := FromContext(host); sc.Traceparent() != tp {
		t.Errorf("the host's context after its spans started: got %s, want %s", sc.Traceparent(), tp)
	}
	for _, s := range spans {
		s.End(timeZero)
	}
	var batch pb.SpanBatch
	if err := proto.Unmarshal(LaneSpans(nil, rec), &batch); err != nil || len(batch.Spans) != len(spans) {
		t.Fatalf("the spans encoded: got %d, %v; want %d", len(batch.Spans), err, len(spans))
	}
	for i, s := range batch.Spans {
		if want := spans[i].Context(); [8]byte(s.GetSpanId()) != want.SpanID || hex.EncodeToString(s.GetParentSpanId()) != tp[36:52] {
			t.Errorf("span %d: got id %x under %x, want %x under %s", i, s.GetSpanId(), s.GetParentSpanId(), want.SpanID, tp[36:52])
		}
	}
}

// refParseTraceparent is ParseTraceparent written plainly, with
// encoding/hex, for FuzzParseTraceparent to compare.
func refParseTraceparent(s string) (SpanContext, bool) {
	if len(s) < 55 || s[2] != '-' || s[35] != '-' || s[52] != '-' || (len(s) > 55 && s[55] != '-') {
		return SpanContext{}, false
	}
	var sc SpanContext
	for _, f := range []string{s[:2], s[3:35], s[36:52], s[53:55]} {
		if strings.ToLower(f) != f {
			return SpanContext{}, false
		}
	}
	version, err1 := hex.DecodeString(s[:2])
	tid, err2 := hex.DecodeString(s[3:35])
	sid, err3 := hex.DecodeString(s[36:52])
	flags, err4 := hex.DecodeString(s[53:55])
	if err := errors.Join(err1, err2, err3, err4); err != nil || version[0] == 0xff || (version[0] == 0 && len(s) != 55) {
		return SpanContext{}, false
	}
	copy(sc.TraceID[:], tid)
	copy(sc.SpanID[:], sid)
	sc.Flags = flags[0]
	if !sc.Valid() {
		return SpanContext{}, false
	}
	return sc, true
}

func FuzzParseTraceparent(f *testing.F) {
	f.Add("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	f.Add("cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-what-comes-next")
	f.Add("00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01")
	f.Add("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0g")
	f.Fuzz(func(t *testing.T, s string) {
		sc, ok := ParseTraceparent(s)
		if want, wantOK := refParseTraceparent(s); ok != wantOK || sc != want {
			t.Fatalf("ParseTraceparent(%q) = %+v, %v; the reference parse gave %+v, %v", s, sc, ok, want, wantOK)
		}
		if !ok {
			return
		}
		if !sc.Valid() {
			t.Fatalf("%q parsed to invalid %+v", s, sc)
		}
		// What was read writes back as the version 00 header of the same ids.
		again, ok := ParseTraceparent(sc.Traceparent())
		if !ok || again.TraceID != sc.TraceID || again.SpanID != sc.SpanID || again.Flags != sc.Flags {
			t.Fatalf("%q: round trip gave %+v, %v", s, again, ok)
		}
	})
}

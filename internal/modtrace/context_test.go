package modtrace

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/metadata"
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

func FuzzParseTraceparent(f *testing.F) {
	f.Add("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	f.Add("cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-what-comes-next")
	f.Fuzz(func(t *testing.T, s string) {
		sc, ok := ParseTraceparent(s)
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

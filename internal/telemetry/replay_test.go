package telemetry

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modtrace"
	"github.com/modkit/modkit/internal/protocol/pb"
)

// richBatch is a batch with every field set, a span without ids, and an
// attribute set twice.
func richBatch() *pb.SpanBatch {
	tid := []byte{9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	return &pb.SpanBatch{Spans: []*pb.Span{
		{
			TraceId: tid, SpanId: []byte{1, 2, 3, 4, 5, 6, 7, 8}, ParentSpanId: []byte{8, 7, 6, 5, 4, 3, 2, 1},
			Name: "run_tool echo", Kind: modtrace.KindServer, StartUnixNano: 1_700_000_000_000_000_001, EndUnixNano: 1_700_000_000_000_000_002,
			Attributes: []*pb.SpanAttribute{
				modtrace.String("gen_ai.tool.name", "echo"), modtrace.Int("n", -3),
				{Key: "ratio", Value: &pb.SpanAttribute_DoubleValue{DoubleValue: 0.5}},
				{Key: "ok", Value: &pb.SpanAttribute_BoolValue{BoolValue: true}},
				modtrace.String("n", "again"), // a later value replaces an earlier one
				{Key: "no value"},
				modtrace.String("modkit.mod", "forged"),
			},
			Events:     []*pb.SpanEvent{{Name: "exception", TimeUnixNano: 1_700_000_000_000_000_001, Attributes: []*pb.SpanAttribute{modtrace.String("exception.message", "boom")}}},
			StatusCode: modtrace.StatusError, StatusMessage: "it failed", TraceState: "vendor=value", Scope: "author",
		},
		{TraceId: tid, SpanId: []byte{2, 2, 2, 2, 2, 2, 2, 2}, ParentSpanId: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Name: "inner", Kind: 99, StatusCode: modtrace.StatusOK, StatusMessage: "dropped"},
		{TraceId: tid[:4], SpanId: []byte{3, 3, 3, 3, 3, 3, 3, 3}, ParentSpanId: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Name: "short trace id"},
		{TraceId: make([]byte, 16), SpanId: []byte{3, 3, 3, 3, 3, 3, 3, 3}, ParentSpanId: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Name: "zero trace id"},
	}}
}

// TestModConverter: a batch's spans come out with everything the mod set,
// the mod named by the host, its ids kept; spans without ids are left out.
func TestModConverter(t *testing.T) {
	raw, err := proto.Marshal(richBatch())
	if err != nil {
		t.Fatal(err)
	}
	c := &modConverter{limits: sdktrace.NewSpanLimits()}
	spans := c.appendSpans(nil, "echomod", string(raw))
	if len(spans) != 2 {
		t.Fatalf("got %d spans, want 2", len(spans))
	}
	s := spans[0]
	wantAttrs := []attribute.KeyValue{
		attribute.String("gen_ai.tool.name", "echo"), attribute.String("n", "again"), attribute.Float64("ratio", 0.5),
		attribute.Bool("ok", true), attribute.String("modkit.mod", "echomod"),
	}
	if got := s.Attributes(); !reflect.DeepEqual(got, wantAttrs) {
		t.Errorf("attributes %v, want %v", got, wantAttrs)
	}
	if s.DroppedAttributes() != 1 {
		t.Errorf("dropped %d attributes, want 1 (the one without a value)", s.DroppedAttributes())
	}
	if s.Name() != "run_tool echo" || s.SpanKind() != trace.SpanKindServer || s.InstrumentationScope().Name != "author" {
		t.Errorf("name %q kind %v scope %q", s.Name(), s.SpanKind(), s.InstrumentationScope().Name)
	}
	if got, want := s.SpanContext().SpanID(), (trace.SpanID{1, 2, 3, 4, 5, 6, 7, 8}); got != want {
		t.Errorf("span id %s, want %s", got, want)
	}
	if got, want := s.Parent().SpanID(), (trace.SpanID{8, 7, 6, 5, 4, 3, 2, 1}); got != want || !s.Parent().IsRemote() || s.Parent().TraceID() != s.SpanContext().TraceID() {
		t.Errorf("parent %+v, want span %s of the same trace, remote", s.Parent(), want)
	}
	if !s.SpanContext().IsSampled() || s.SpanContext().TraceState().Get("vendor") != "value" {
		t.Errorf("span context %+v, want sampled with the trace state", s.SpanContext())
	}
	if got, want := s.StartTime(), time.Unix(0, 1_700_000_000_000_000_001); !got.Equal(want) || !s.EndTime().Equal(want.Add(1)) {
		t.Errorf("from %v to %v, want %v to 1ns later", got, s.EndTime(), want)
	}
	if got := s.Status(); got != (sdktrace.Status{Code: codes.Error, Description: "it failed"}) {
		t.Errorf("status %+v", got)
	}
	if ev := s.Events(); len(ev) != 1 || ev[0].Name != "exception" || len(ev[0].Attributes) != 1 || ev[0].Attributes[0].Value.AsString() != "boom" {
		t.Errorf("events %+v", ev)
	}
	inner := spans[1]
	if inner.SpanKind() != trace.SpanKindInternal || inner.Status() != (sdktrace.Status{Code: codes.Ok}) || inner.InstrumentationScope().Name != "mod echomod" {
		t.Errorf("inner: kind %v status %+v scope %q, want internal, ok without a message, mod echomod", inner.SpanKind(), inner.Status(), inner.InstrumentationScope().Name)
	}
}

// TestModConverterLimits: the SDK's span limits hold for a mod's spans.
func TestModConverterLimits(t *testing.T) {
	span := richBatch().Spans[1]
	for i := range 5 {
		span.Attributes = append(span.Attributes, modtrace.String(fmt.Sprint("k", i), "ünïcode"))
		span.Events = append(span.Events, &pb.SpanEvent{Name: fmt.Sprint("e", i), Attributes: []*pb.SpanAttribute{modtrace.Int("a", 1), modtrace.Int("b", 2)}})
	}
	raw, err := proto.Marshal(&pb.SpanBatch{Spans: []*pb.Span{span}})
	if err != nil {
		t.Fatal(err)
	}
	c := &modConverter{limits: sdktrace.SpanLimits{AttributeCountLimit: 3, AttributeValueLengthLimit: 2, EventCountLimit: 2, AttributePerEventCountLimit: 1}}
	spans := c.appendSpans(nil, "m", string(raw))
	if len(spans) != 1 {
		t.Fatalf("got %d spans, want 1", len(spans))
	}
	s := spans[0]
	want := []attribute.KeyValue{attribute.String("k0", "ün"), attribute.String("k1", "ün"), attribute.String("k2", "ün"), attribute.String("modkit.mod", "m")}
	if got := s.Attributes(); !reflect.DeepEqual(got, want) || s.DroppedAttributes() != 2 {
		t.Errorf("attributes %v (%d dropped), want %v (2 dropped)", got, s.DroppedAttributes(), want)
	}
	ev := s.Events()
	if len(ev) != 2 || ev[0].Name != "e3" || ev[1].Name != "e4" || s.DroppedEvents() != 3 {
		t.Fatalf("events %+v (%d dropped), want the last two (3 dropped)", ev, s.DroppedEvents())
	}
	if len(ev[0].Attributes) != 1 || ev[0].DroppedAttributeCount != 1 {
		t.Errorf("event attributes %v (%d dropped), want 1 (1 dropped)", ev[0].Attributes, ev[0].DroppedAttributeCount)
	}
}

// TestModConverterMalformed: a batch protobuf refuses adds no span, and
// the spans already in dst stay.
func TestModConverterMalformed(t *testing.T) {
	raw, err := proto.Marshal(richBatch())
	if err != nil {
		t.Fatal(err)
	}
	rawBad := protowire.AppendTag(nil, pb.FieldBatchSpans, protowire.BytesType)
	rawBad = protowire.AppendBytes(rawBad, protowire.AppendString(protowire.AppendTag(nil, pb.FieldSpanName, protowire.BytesType), "\xff"))
	c := &modConverter{limits: sdktrace.NewSpanLimits()}
	dst := c.appendSpans(nil, "m", string(raw))
	for name, bad := range map[string]string{
		"truncated":     string(raw[:len(raw)-3]),
		"invalid UTF-8": string(raw) + string(rawBad),
		"field 0":       string(raw) + "\x00\x01",
		"end group":     string(raw) + "\x0c",
	} {
		if proto.Unmarshal([]byte(bad), &pb.SpanBatch{}) == nil {
			t.Errorf("%s: protobuf accepts it", name)
		}
		if got := c.appendSpans(dst, "m", bad); len(got) != len(dst) {
			t.Errorf("%s: %d spans added, want none", name, len(got)-len(dst))
		}
	}
}

// TestModConverterAllocs: a span of the echo mod costs its snapshot and
// its attributes.
func TestModConverterAllocs(t *testing.T) {
	batch := modBatch1(t)
	c := &modConverter{limits: sdktrace.NewSpanLimits()}
	dst := make([]sdktrace.ReadOnlySpan, 0, 1)
	if n := testing.AllocsPerRun(100, func() { dst = c.appendSpans(dst[:0], "echomod", batch) }); n > 2 {
		t.Errorf("%v allocations per span, want at most 2", n)
	}
}

// FuzzModConverter: the converter accepts what protobuf accepts and
// reads the same spans from it.
func FuzzModConverter(f *testing.F) {
	raw, err := proto.Marshal(richBatch())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte(modBatch1(f)))
	f.Add([]byte{0x0a, 0x02, 0x22, 0x00})
	c := &modConverter{limits: sdktrace.SpanLimits{AttributeCountLimit: 4, AttributeValueLengthLimit: 8, EventCountLimit: 2, AttributePerEventCountLimit: 2}}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := c.appendSpans(nil, "m", string(data))
		var batch pb.SpanBatch
		if proto.Unmarshal(data, &batch) != nil {
			if len(got) != 0 {
				t.Fatalf("%d spans from a batch protobuf refuses", len(got))
			}
			return
		}
		want := wantSpans(c, "m", &batch)
		if g, w := describe(got), describe(want); g != w {
			t.Fatalf("got\n%s\nwant\n%s", g, w)
		}
	})
}

// wantSpans is what the converter should make of a batch protobuf
// decoded: what it makes of the same spans in protobuf's own encoding.
func wantSpans(c *modConverter, mod string, b *pb.SpanBatch) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range b.Spans {
		// One span at a time, as protobuf encodes it: the fuzzer's
		// encoding may repeat fields, split them or hide them as unknown.
		raw, _ := proto.Marshal(&pb.SpanBatch{Spans: []*pb.Span{s}})
		out = append(out, c.appendSpans(nil, mod, string(raw))...)
	}
	return out
}

// describe writes spans out to compare them.
func describe(spans []sdktrace.ReadOnlySpan) string {
	var b strings.Builder
	for _, s := range spans {
		fmt.Fprintf(&b, "%q %s %s<-%s %v %d-%d %v(%d) %+v(%d) %+v %q\n", s.Name(), s.SpanContext().TraceID(), s.SpanContext().SpanID(), s.Parent().SpanID(),
			s.SpanKind(), s.StartTime().UnixNano(), s.EndTime().UnixNano(), attrText(s.Attributes()), s.DroppedAttributes(), s.Events(), s.DroppedEvents(), s.Status(), s.InstrumentationScope().Name)
	}
	return b.String()
}

func attrText(kvs []attribute.KeyValue) string {
	var b strings.Builder
	for _, kv := range kvs {
		v := kv.Value.Emit()
		if kv.Value.Type() == attribute.FLOAT64 && math.IsNaN(kv.Value.AsFloat64()) {
			v = "NaN"
		}
		fmt.Fprintf(&b, "%s=%s;", kv.Key, v)
	}
	return b.String()
}

package modtrace

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// fullSpan is a span with every field of Span, SpanAttribute and SpanEvent
// set, from the arguments.
func fullSpan(name, key, str string, num int64, dbl float64, flag bool, kind int32, at uint64) *pb.Span {
	attrs := func() []*pb.SpanAttribute {
		return []*pb.SpanAttribute{
			String(key, str), Int(key+"n", num),
			{Key: key + "d", Value: &pb.SpanAttribute_DoubleValue{DoubleValue: dbl}},
			{Key: key + "b", Value: &pb.SpanAttribute_BoolValue{BoolValue: flag}},
			{Key: key + "none"},
		}
	}
	return &pb.Span{
		TraceId: []byte("0123456789abcdef"), SpanId: []byte("01234567"), ParentSpanId: []byte("76543210"),
		Name: name, Kind: kind, StartUnixNano: at, EndUnixNano: at + 1,
		Attributes:    attrs(),
		Events:        []*pb.SpanEvent{{Name: name, TimeUnixNano: at, Attributes: attrs()}, {}},
		StatusCode:    kind - 1,
		StatusMessage: str, TraceState: key, Scope: name + str,
	}
}

// TestAppendSpanIsProtobufs: the span encoder writes what proto.Marshal
// writes, zero values, negative numbers and empty messages included.
func TestAppendSpanIsProtobufs(t *testing.T) {
	for _, s := range []*pb.Span{
		{},
		fullSpan("run_tool echo", "gen_ai.tool.name", "echo", 7, 1.5, true, KindServer, 1_700_000_000_000_000_000),
		fullSpan("", "", "", -1, math.Inf(-1), false, -3, 0),
		fullSpan("名前", "ключ", "値", math.MinInt64, math.NaN(), true, math.MaxInt32, math.MaxUint64-1),
		// Lengths of two and three bytes: the body moves up once written.
		fullSpan("n", "k", strings.Repeat("v", 100), 1, 1, true, 1, 1),
		fullSpan(strings.Repeat("n", 20_000), "k", strings.Repeat("v", 200), 1, 1, true, 1, 1),
	} {
		checkEncoding(t, s)
	}
}

// TestEncodedFallsBack: a span protobuf refuses (a string that is not
// UTF-8) makes encoded refuse the batch, as proto.Marshal does; a nil
// attribute is protobuf's to judge.
func TestEncodedFallsBack(t *testing.T) {
	for name, s := range map[string]*pb.Span{
		"bad name":                {Name: "\xff"},
		"bad attribute":           {Attributes: []*pb.SpanAttribute{String("k", "\xfe")}},
		"nil attribute":           {Attributes: []*pb.SpanAttribute{nil}},
		"unknown field":           withUnknown(&pb.Span{Name: "n"}),
		"unknown in an attribute": {Attributes: []*pb.SpanAttribute{withUnknown(String("k", "v"))}},
	} {
		if _, ok := appendSpan(nil, 1, s); ok {
			t.Errorf("%s: appendSpan takes it, want it left to protobuf", name)
		}
		want := protoEncoded(nil, []*pb.Span{s})
		rec := NewRecorder()
		rec.finish(&Span{}, s)
		if got := rec.encoded(); !bytes.Equal(got, want) {
			t.Errorf("%s: encoded %x, want protobuf's %x", name, got, want)
		}
	}
}

// withUnknown is m with a field this build does not know.
func withUnknown[M proto.Message](m M) M {
	m.ProtoReflect().SetUnknown(protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 1))
	return m
}

func checkEncoding(t *testing.T, s *pb.Span) {
	t.Helper()
	want, err := proto.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	// As the field of a SpanBatch, after what b holds already.
	want = protowire.AppendBytes(protowire.AppendTag([]byte("before"), spanBatchSpans, protowire.BytesType), want)
	got, ok := appendSpan([]byte("before"), spanBatchSpans, s)
	if !ok {
		t.Fatalf("appendSpan refuses %v", s)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("span %v:\ngot  %x\nwant %x", s, got, want)
	}
}

// FuzzAppendSpan: for any values, the span encoder writes what
// proto.Marshal writes, or leaves the span to it.
func FuzzAppendSpan(f *testing.F) {
	f.Add("run_tool echo", "gen_ai.tool.name", "echo", int64(7), 1.5, true, int32(2), uint64(1_700_000_000_000_000_000))
	f.Add("", "", "\xff", int64(-1), -0.0, false, int32(-1), uint64(0))
	f.Fuzz(func(t *testing.T, name, key, str string, num int64, dbl float64, flag bool, kind int32, at uint64) {
		s := fullSpan(name, key, str, num, dbl, flag, kind, at)
		if _, ok := appendSpan(nil, spanBatchSpans, s); !ok {
			if _, err := proto.Marshal(s); err == nil {
				t.Fatalf("appendSpan refuses a span protobuf takes: %v", s)
			}
			return
		}
		checkEncoding(t, s)
	})
}

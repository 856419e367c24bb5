package telemetry

import (
	"reflect"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// testCall is a sampled call's record, ended with its outcome.
func testCall(tool, callID, label, failure string) *callRecord {
	r := &callRecord{tool: tool}
	r.sc = trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled})
	r.name = callName(tool)
	r.callID, r.label, r.failure = callID, label, failure
	return r
}

// TestExportSlab: the spans one export makes share their room (the calls'
// attributes, the mods' spans) and are the spans each would be alone; one
// span's attributes, appended to, do not reach into the next one's.
func TestExportSlab(t *testing.T) {
	exp := &keepingExporter{}
	conv := &modConverter{limits: sdktrace.NewSpanLimits()}
	b := &batcher{exp: exp, conv: conv, maxQueue: 100, maxBatch: 100}
	b.laterCall(testCall("echo", "call_7", "lbl", "it broke"))
	b.later("echomod", modBatch1(t))
	b.laterCall(testCall("echo", "", "", ""))
	b.later("echomod", modBatch1(t))
	b.export()

	failed := []attribute.KeyValue{attribute.String("gen_ai.tool.name", "echo"), attribute.String("modkit.call.id", "call_7"),
		attribute.String("modkit.call.label", "lbl"), attribute.String("error.type", "tool_error")}
	plain := []attribute.KeyValue{attribute.String("gen_ai.tool.name", "echo")}
	mod := []attribute.KeyValue{attribute.String("gen_ai.tool.name", "echo"), attribute.String("modkit.call.id", "call_42"),
		attribute.String("modkit.mod", "echomod")}
	want := [][]attribute.KeyValue{failed, plain, mod, mod}
	if len(exp.spans) != len(want) {
		t.Fatalf("got %d spans, want %d", len(exp.spans), len(want))
	}
	alone := conv.appendSpans(nil, "echomod", modBatch1(t))[0]
	for i, s := range exp.spans {
		if got := s.Attributes(); !reflect.DeepEqual(got, want[i]) || cap(got) != len(got) {
			t.Errorf("span %d: attributes %v (cap %d), want %v (cap %d)", i, got, cap(got), want[i], len(want[i]))
		}
		if i >= 2 && (s.Name() != alone.Name() || !s.SpanContext().Equal(alone.SpanContext()) || !s.Parent().Equal(alone.Parent()) ||
			s.StartTime() != alone.StartTime() || s.EndTime() != alone.EndTime()) {
			t.Errorf("mod span %d: %q %v under %v, want %q %v under %v", i, s.Name(), s.SpanContext(), s.Parent(),
				alone.Name(), alone.SpanContext(), alone.Parent())
		}
	}
	_ = append(exp.spans[0].Attributes(), attribute.String("k", "v"))
	if got := exp.spans[1].Attributes(); !reflect.DeepEqual(got, plain) {
		t.Errorf("after an append to the first span's attributes, the second's are %v, want %v", got, plain)
	}
}

// TestExportAllocs: an export of a hundred calls and their mods' spans
// allocates their room a chunk at a time, not two allocations a call.
func TestExportAllocs(t *testing.T) {
	conv := &modConverter{limits: sdktrace.NewSpanLimits()}
	b := &batcher{exp: &countingExporter{}, conv: conv, maxQueue: 1000, maxBatch: 1000}
	batch := modBatch1(t)
	calls := make([]*callRecord, 100)
	for i := range calls {
		calls[i] = testCall("echo", "call_42", "", "")
	}
	allocs := func(n int) float64 {
		return testing.AllocsPerRun(20, func() {
			for _, r := range calls[:n] {
				b.laterCall(r)
				b.later("echomod", batch)
			}
			b.export()
		})
	}
	one, many := allocs(1), allocs(len(calls))
	// One's allocations, and a chunk of attributes and of mods' spans
	// more for each chunk's worth of calls past the first (a call's span
	// has two attributes, its mod's three of the room for modAttrs).
	if want := one + float64(len(calls)/slabMods+len(calls)*(2+modAttrs)/slabAttrs); many > want {
		t.Errorf("got %v allocations exporting %d calls, want at most %v (%v for one)", many, len(calls), want, one)
	}
}

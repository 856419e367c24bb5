package telemetry

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/proto"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/exported.golden")

// TestExportedSpans: the spans the batcher exports, the host's calls'
// and the mods', are exactly those of testdata/exported.golden, every
// field an exporter reads. A call's own span id and times, which are
// random or the clock's, read as their relation to the call's context.
func TestExportedSpans(t *testing.T) {
	exp := &keepingExporter{}
	conv := &modConverter{res: resource.NewSchemaless(attribute.String("service.name", "golden")), limits: sdktrace.NewSpanLimits()}
	sink := &modExport{conv: *conv, sampler: sdktrace.ParentBased(sdktrace.AlwaysSample())}
	b := &batcher{exp: exp, conv: &sink.conv, maxQueue: 100, maxBatch: 100}
	sink.batcher = b

	ts, _ := trace.ParseTraceState("vendor=value")
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{0xa, 0xf7}, SpanID: trace.SpanID{0xb7, 0xad},
		TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true})
	var own []trace.SpanContext
	for _, c := range []struct{ callID, label, failure string }{{"call_7", "lbl", "it broke"}, {"", "", ""}, {"call_8", "", ""}} {
		ctx, span := startCall(trace.ContextWithRemoteSpanContext(context.Background(), parent), sink, "echo")
		own = append(own, trace.SpanContextFromContext(ctx))
		span.call.endAt(sink, span.call.start, c.callID, c.label, c.failure)
		b.later("echomod", modBatch1(t))
	}
	// A root call, without a parent.
	ctx, span := startCall(context.Background(), sink, "echo_other")
	own = append(own, trace.SpanContextFromContext(ctx))
	span.call.endAt(sink, span.call.start.Add(time.Millisecond), "call_9", "", "")
	raw, err := proto.Marshal(richBatch())
	if err != nil {
		t.Fatal(err)
	}
	b.later("othermod", string(raw))
	b.export()

	var out strings.Builder
	for i, s := range exp.spans {
		fmt.Fprintf(&out, "span %d\n%s\n", i, dumpSpan(s, own))
	}
	const golden = "testdata/exported.golden"
	if *updateGolden {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		t.Errorf("exported spans:\n%s\nwant:\n%s", got, want)
	}
}

// dumpSpan writes out every field of s; a span context among own reads
// as "call N", and that call's end as its offset from its start.
func dumpSpan(s sdktrace.ReadOnlySpan, own []trace.SpanContext) string {
	var b strings.Builder
	sc := func(c trace.SpanContext) string {
		for i, o := range own {
			if c.Equal(o) && c.TraceState().String() == o.TraceState().String() {
				return fmt.Sprintf("call %d", i)
			}
		}
		return fmt.Sprintf("%s/%s flags %s state %q remote %v", c.TraceID(), c.SpanID(), c.TraceFlags(), c.TraceState().String(), c.IsRemote())
	}
	fmt.Fprintf(&b, "  name %q kind %v\n  context %s\n  parent %s\n", s.Name(), s.SpanKind(), sc(s.SpanContext()), sc(s.Parent()))
	if strings.HasPrefix(sc(s.SpanContext()), "call ") {
		fmt.Fprintf(&b, "  start now, end start+%v\n", s.EndTime().Sub(s.StartTime()))
	} else {
		fmt.Fprintf(&b, "  start %d end %d, %v\n", s.StartTime().UnixNano(), s.EndTime().UnixNano(), s.EndTime().Location())
	}
	for _, a := range s.Attributes() {
		fmt.Fprintf(&b, "  attr %s %s %s\n", a.Key, a.Value.Type(), a.Value.Emit())
	}
	fmt.Fprintf(&b, "  dropped attrs %d links %d events %d, links %v, children %d\n", s.DroppedAttributes(), s.DroppedLinks(), s.DroppedEvents(), s.Links(), s.ChildSpanCount())
	for _, e := range s.Events() {
		fmt.Fprintf(&b, "  event %q %d dropped %d\n", e.Name, e.Time.UnixNano(), e.DroppedAttributeCount)
		for _, a := range e.Attributes {
			fmt.Fprintf(&b, "    attr %s %s %s\n", a.Key, a.Value.Type(), a.Value.Emit())
		}
	}
	fmt.Fprintf(&b, "  status %v %q\n  scope %+v\n  resource %s", s.Status().Code, s.Status().Description, s.InstrumentationScope(), s.Resource())
	return b.String()
}

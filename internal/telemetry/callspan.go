package telemetry

import (
	"context"
	"time"
	"unsafe"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/modkit/modkit/internal/modtrace"
)

// callRecord is the span of one host call, recorded without the SDK: ids,
// parent, times and outcome, in one allocation. It is finished as an
// OpenTelemetry span only when it is exported ([callRecord.finish]); with
// a batching exporter that is off the call's path, in the exporter's
// goroutine. It is its own ReadOnlySpan, with only what a call's span
// holds: smaller than a spanRecord and the call's fields beside it.
type callRecord struct {
	// The SDK lets no other package implement ReadOnlySpan: embedding
	// it, always nil, supplies the unexported method, as spanRecord
	// does. Every exported method is callRecord's own
	// (TestSpanRecordMethods).
	sdktrace.ReadOnlySpan
	// A call's context holds its record as its current span
	// ([callRecord.SpanContext] and no-ops, as trace's non-recording span
	// has): one allocation for the context, not two.
	embedded.Span

	name, tool, callID, label string
	failure                   string // the status's description
	sc, parent                trace.SpanContext
	start, end                time.Time
	attrs                     []attribute.KeyValue // set by finish
	res                       *resource.Resource   // set by finish
	// tp is the traceparent header of a sampled call's span, which the
	// call carries to its mod ([callRecord.traceparent]).
	tp [modtrace.TraceparentLen]byte
}

// SpanContext is the call's span context.
func (r *callRecord) SpanContext() trace.SpanContext { return r.sc }

// The ReadOnlySpan methods of the call's span once it is finished: an
// internal span of the host's scope, with no events or links; a failed
// call has the status Error.

func (r *callRecord) Name() string                     { return r.name }
func (r *callRecord) Parent() trace.SpanContext        { return r.parent }
func (r *callRecord) SpanKind() trace.SpanKind         { return trace.SpanKindInternal }
func (r *callRecord) StartTime() time.Time             { return r.start }
func (r *callRecord) EndTime() time.Time               { return r.end }
func (r *callRecord) Attributes() []attribute.KeyValue { return r.attrs }
func (r *callRecord) Links() []sdktrace.Link           { return nil }
func (r *callRecord) Events() []sdktrace.Event         { return nil }
func (r *callRecord) DroppedAttributes() int           { return 0 }
func (r *callRecord) DroppedLinks() int                { return 0 }
func (r *callRecord) DroppedEvents() int               { return 0 }
func (r *callRecord) ChildSpanCount() int              { return 0 }
func (r *callRecord) Resource() *resource.Resource     { return r.res }

func (r *callRecord) Status() sdktrace.Status {
	if r.failure != "" {
		return sdktrace.Status{Code: codes.Error, Description: r.failure}
	}
	return sdktrace.Status{}
}

func (r *callRecord) InstrumentationScope() instrumentation.Scope {
	return instrumentation.Scope{Name: tracerName}
}

//nolint:staticcheck // ReadOnlySpan still has it.
func (r *callRecord) InstrumentationLibrary() instrumentation.Library {
	return instrumentation.Scope{Name: tracerName}
}

// The trace.Span methods of the call's span in its context do nothing, as
// trace.ContextWithSpanContext's span's do: it ends with [Span.EndCall].

func (r *callRecord) IsRecording() bool                       { return false }
func (r *callRecord) End(...trace.SpanEndOption)              {}
func (r *callRecord) AddEvent(string, ...trace.EventOption)   {}
func (r *callRecord) AddLink(trace.Link)                      {}
func (r *callRecord) RecordError(error, ...trace.EventOption) {}
func (r *callRecord) SetStatus(codes.Code, string)            {}
func (r *callRecord) SetName(string)                          {}
func (r *callRecord) SetAttributes(...attribute.KeyValue)     {}
func (r *callRecord) TracerProvider() trace.TracerProvider    { return noop.NewTracerProvider() }

// startCall is StartCall with tracing on: the sampler m's provider has
// decides, as it would for a span the SDK starts, and ctx carries the
// call's span context, so that the SDK's spans started under it (the
// steps, the mod's spans) are its children.
func startCall(ctx context.Context, m *modExport, tool string) (context.Context, Span) {
	parent := trace.SpanContextFromContext(ctx)
	var tid trace.TraceID
	var sid trace.SpanID
	if parent.IsValid() {
		tid, sid = parent.TraceID(), randomIDs{}.NewSpanID(ctx, parent.TraceID())
	} else {
		tid, sid = randomIDs{}.NewIDs(ctx)
	}
	name := callName(tool)
	res := m.sampler.ShouldSample(sdktrace.SamplingParameters{ParentContext: ctx, TraceID: tid, Name: name, Kind: trace.SpanKindInternal})
	flags := parent.TraceFlags() &^ trace.FlagsSampled
	if res.Decision == sdktrace.RecordAndSample {
		flags |= trace.FlagsSampled
	}
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: flags, TraceState: res.Tracestate})
	if res.Decision == sdktrace.Drop {
		return trace.ContextWithSpanContext(ctx, sc), Span{}
	}
	r := &callRecord{tool: tool}
	r.sc, r.parent, r.name, r.start = sc, parent, name, time.Now()
	if sc.IsSampled() {
		modtrace.SpanContext{TraceID: tid, SpanID: sid, Flags: byte(flags)}.PutTraceparent(&r.tp)
	}
	return trace.ContextWithSpan(ctx, r), Span{call: r}
}

// traceparent is the traceparent header of the call's span, sampled: it
// points into r, whose header is not written again.
func (r *callRecord) traceparent() string {
	return unsafe.String(&r.tp[0], len(r.tp))
}

// endCall ends the call's span with its outcome and hands it on; r is
// not used again.
func (r *callRecord) endCall(callID, label, failure string) {
	r.endAt(modSink.Load(), time.Now(), callID, label, failure)
}

// endAt is endCall at the time end, handing the span on to m, if any.
func (r *callRecord) endAt(m *modExport, end time.Time, callID, label, failure string) {
	r.end = end
	r.callID, r.label, r.failure = callID, label, failure
	if m != nil {
		m.takeCall(r)
	}
}

// finish completes the call's span as the SDK would have made it, the
// host's resource, string attributes cut to the span limits' length, and
// returns it; r is not changed again. Its attributes take their room from
// slab, when it has some.
func (r *callRecord) finish(c *modConverter, slab *exportSlab) sdktrace.ReadOnlySpan {
	limit := c.limits.AttributeValueLengthLimit
	attrs := slab.attrs(r.attrCount())
	attrs = append(attrs, attribute.String("gen_ai.tool.name", truncate(r.tool, limit)))
	if r.callID != "" {
		attrs = append(attrs, attribute.String("modkit.call.id", truncate(r.callID, limit)))
	}
	if r.label != "" {
		attrs = append(attrs, attribute.String("modkit.call.label", truncate(r.label, limit)))
	}
	if r.failure != "" {
		attrs = append(attrs, attribute.String("error.type", "tool_error"))
	}
	r.attrs = attrs
	r.res = c.res
	return r
}

// attrCount is how many attributes the call's span has.
func (r *callRecord) attrCount() int {
	n := 1
	if r.callID != "" {
		n++
	}
	if r.label != "" {
		n++
	}
	if r.failure != "" {
		n++
	}
	return n
}

// exportSlab is room for the spans one export makes, the calls'
// attributes and the mods' spans and theirs, allocated a chunk at a time
// rather than once a span. A chunk stays a small object (at most 16 KB),
// which the allocator reuses as it does a span's: a larger one would come
// from fresh pages. A nil slab allocates each.
type exportSlab struct {
	attrsLeft, modsLeft int                  // how many the export still needs
	free                []attribute.KeyValue // len == cap: attributes of this chunk left
	mods                []spanRecord         // mods' spans of this chunk left
}

// Chunk sizes: 256 attributes of 64 bytes, 32 mods' spans of 320 bytes.
const (
	slabAttrs = 256
	slabMods  = 32
	// modAttrs is the room a mod's span's attributes start with: a
	// handler's span has the tool, the call, the mod and, when it failed,
	// an error's type; the export counts on the three of a success.
	modAttrs = 4
	okAttrs  = 3
)

// newExportSlab has room for the attributes of calls and one span for
// each of mods' batches, as a handler's call sends one, and its
// attributes.
func newExportSlab(calls []*callRecord, mods int) *exportSlab {
	n := mods * okAttrs
	for _, r := range calls {
		n += r.attrCount()
	}
	return &exportSlab{attrsLeft: n, modsLeft: mods}
}

// attrs returns an empty slice with room for n attributes, its capacity
// n: appending past it does not write into the next span's.
func (s *exportSlab) attrs(n int) []attribute.KeyValue {
	if s == nil {
		return make([]attribute.KeyValue, 0, n)
	}
	s.reserve(n)
	a := s.free[:0:n]
	s.free = s.free[n:]
	s.attrsLeft -= n
	return a
}

// reserve makes room for n attributes in the chunk.
func (s *exportSlab) reserve(n int) {
	if len(s.free) < n {
		s.free = make([]attribute.KeyValue, max(n, min(s.attrsLeft, slabAttrs)))
	}
}

// openAttrs returns an empty slice to append a mod's span's attributes
// to, in the chunk's room; [exportSlab.closeAttrs] takes what they used.
func (s *exportSlab) openAttrs() []attribute.KeyValue {
	if s == nil {
		return make([]attribute.KeyValue, 0, modAttrs)
	}
	s.reserve(modAttrs)
	return s.free[:0]
}

// closeAttrs returns a, from openAttrs, its capacity its length, and
// takes the room it used from the chunk, unless appending outgrew it.
func (s *exportSlab) closeAttrs(a []attribute.KeyValue) []attribute.KeyValue {
	n := len(a)
	a = a[:n:n]
	if s == nil || n == 0 || &a[0] != &s.free[0] {
		return a
	}
	s.free = s.free[n:]
	s.attrsLeft -= n
	return a
}

// modSpan returns a zero mod's span.
func (s *exportSlab) modSpan() *spanRecord {
	if s == nil {
		return &spanRecord{}
	}
	if len(s.mods) == 0 {
		s.mods = make([]spanRecord, max(1, min(s.modsLeft, slabMods)))
	}
	m := &s.mods[0]
	s.mods = s.mods[1:]
	s.modsLeft--
	return m
}

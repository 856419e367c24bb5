package telemetry

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// spanRecord is a finished span recorded outside the SDK (a host call's, a
// mod's), as the SDK's processors and exporters read it: what
// tracetest.SpanStub.Snapshot makes, without copying the stub into a
// snapshot of its own. Its fields are set before it is handed on and never
// changed after.
type spanRecord struct {
	// The SDK lets no other package implement ReadOnlySpan: embedding
	// it, always nil, supplies the unexported method, as tracetest's
	// snapshots do. Every exported method is spanRecord's own
	// (TestSpanRecordMethods).
	sdktrace.ReadOnlySpan

	name       string
	sc, parent trace.SpanContext
	start, end time.Time
	attrs      []attribute.KeyValue
	events     []sdktrace.Event
	status     sdktrace.Status
	scope      string // the instrumentation scope's name
	res        *resource.Resource
	// Small, to keep a call's record and a mod's span in the smaller
	// size class.
	kind, droppedAttrs, droppedEvents int32
}

func (s *spanRecord) Name() string                     { return s.name }
func (s *spanRecord) SpanContext() trace.SpanContext   { return s.sc }
func (s *spanRecord) Parent() trace.SpanContext        { return s.parent }
func (s *spanRecord) SpanKind() trace.SpanKind         { return trace.SpanKind(s.kind) }
func (s *spanRecord) StartTime() time.Time             { return s.start }
func (s *spanRecord) EndTime() time.Time               { return s.end }
func (s *spanRecord) Attributes() []attribute.KeyValue { return s.attrs }
func (s *spanRecord) Links() []sdktrace.Link           { return nil }
func (s *spanRecord) Events() []sdktrace.Event         { return s.events }
func (s *spanRecord) Status() sdktrace.Status          { return s.status }
func (s *spanRecord) DroppedAttributes() int           { return int(s.droppedAttrs) }
func (s *spanRecord) DroppedLinks() int                { return 0 }
func (s *spanRecord) DroppedEvents() int               { return int(s.droppedEvents) }
func (s *spanRecord) ChildSpanCount() int              { return 0 }
func (s *spanRecord) Resource() *resource.Resource     { return s.res }

func (s *spanRecord) InstrumentationScope() instrumentation.Scope {
	return instrumentation.Scope{Name: s.scope}
}

//nolint:staticcheck // ReadOnlySpan still has it.
func (s *spanRecord) InstrumentationLibrary() instrumentation.Library {
	return instrumentation.Scope{Name: s.scope}
}

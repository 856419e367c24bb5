package pb

import "google.golang.org/protobuf/encoding/protowire"

// The field numbers of SpanBatch, Span, SpanAttribute and SpanEvent, for
// the hand-written codecs of a mod's spans: internal/modtrace writes them,
// internal/telemetry reads them. TestSpanFields checks them against the
// messages' descriptors.
const (
	FieldBatchSpans protowire.Number = 1

	FieldSpanTraceID       protowire.Number = 1
	FieldSpanSpanID        protowire.Number = 2
	FieldSpanParentSpanID  protowire.Number = 3
	FieldSpanName          protowire.Number = 4
	FieldSpanKind          protowire.Number = 5
	FieldSpanStart         protowire.Number = 6
	FieldSpanEnd           protowire.Number = 7
	FieldSpanAttributes    protowire.Number = 8
	FieldSpanEvents        protowire.Number = 9
	FieldSpanStatusCode    protowire.Number = 10
	FieldSpanStatusMessage protowire.Number = 11
	FieldSpanTraceState    protowire.Number = 12
	FieldSpanScope         protowire.Number = 13

	FieldAttrKey    protowire.Number = 1
	FieldAttrString protowire.Number = 2
	FieldAttrInt    protowire.Number = 3
	FieldAttrDouble protowire.Number = 4
	FieldAttrBool   protowire.Number = 5

	FieldEventName       protowire.Number = 1
	FieldEventTime       protowire.Number = 2
	FieldEventAttributes protowire.Number = 3
)

// HasUnknown reports whether s holds fields unknown to this build, as
// len(s.ProtoReflect().GetUnknown()) > 0 does, without reflection: the
// span encoder of internal/modtrace asks it of every span it writes.
func (s *Span) HasUnknown() bool { return len(s.unknownFields) > 0 }

// HasUnknown is [Span.HasUnknown] for an attribute.
func (a *SpanAttribute) HasUnknown() bool { return len(a.unknownFields) > 0 }

// HasUnknown is [Span.HasUnknown] for an event.
func (e *SpanEvent) HasUnknown() bool { return len(e.unknownFields) > 0 }

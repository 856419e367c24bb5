package pb

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func TestSpanFields(t *testing.T) {
	for _, c := range []struct {
		msg   protoreflect.ProtoMessage
		field protoreflect.Name
		want  protowire.Number
	}{
		{&SpanBatch{}, "spans", FieldBatchSpans},
		{&Span{}, "trace_id", FieldSpanTraceID},
		{&Span{}, "span_id", FieldSpanSpanID},
		{&Span{}, "parent_span_id", FieldSpanParentSpanID},
		{&Span{}, "name", FieldSpanName},
		{&Span{}, "kind", FieldSpanKind},
		{&Span{}, "start_unix_nano", FieldSpanStart},
		{&Span{}, "end_unix_nano", FieldSpanEnd},
		{&Span{}, "attributes", FieldSpanAttributes},
		{&Span{}, "events", FieldSpanEvents},
		{&Span{}, "status_code", FieldSpanStatusCode},
		{&Span{}, "status_message", FieldSpanStatusMessage},
		{&Span{}, "trace_state", FieldSpanTraceState},
		{&Span{}, "scope", FieldSpanScope},
		{&SpanAttribute{}, "key", FieldAttrKey},
		{&SpanAttribute{}, "string_value", FieldAttrString},
		{&SpanAttribute{}, "int_value", FieldAttrInt},
		{&SpanAttribute{}, "double_value", FieldAttrDouble},
		{&SpanAttribute{}, "bool_value", FieldAttrBool},
		{&SpanEvent{}, "name", FieldEventName},
		{&SpanEvent{}, "time_unix_nano", FieldEventTime},
		{&SpanEvent{}, "attributes", FieldEventAttributes},
	} {
		d := c.msg.ProtoReflect().Descriptor()
		f := d.Fields().ByName(c.field)
		if f == nil {
			t.Errorf("%s has no field %s", d.Name(), c.field)
			continue
		}
		if got := protowire.Number(f.Number()); got != c.want {
			t.Errorf("%s.%s is field %d, the constant says %d", d.Name(), c.field, got, c.want)
		}
	}
}

// TestHasUnknown: HasUnknown says what GetUnknown's length does, before
// and after a message is given fields this build does not know.
func TestHasUnknown(t *testing.T) {
	unknown := protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 1)
	for _, m := range []interface {
		protoreflect.ProtoMessage
		HasUnknown() bool
	}{&Span{Name: "n"}, &SpanAttribute{Key: "k"}, &SpanEvent{Name: "e"}} {
		if got := m.HasUnknown(); got {
			t.Errorf("%T without unknown fields: got HasUnknown true, want false", m)
		}
		m.ProtoReflect().SetUnknown(unknown)
		if got, want := m.HasUnknown(), len(m.ProtoReflect().GetUnknown()) > 0; got != want || !got {
			t.Errorf("%T with unknown fields: got HasUnknown %v, want %v", m, got, want)
		}
	}
}

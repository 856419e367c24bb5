package telemetry

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// modConverter turns the span batches mods send back into finished spans
// of the host's, as its processors and exporters take them: the spans
// keep the ids, parent, times, kind, attributes, events and status the mod
// gave them, get the host's resource and the span limits the SDK applies
// to its own spans. It decodes the batch itself, without protobuf's
// reflection, and the spans' strings share the batch's memory.
type modConverter struct {
	res    *resource.Resource
	limits sdktrace.SpanLimits
}

// appendSpans decodes batch, a mod's encoded SpanBatch, and appends its
// spans to dst, with the attribute modkit.mod naming mod. A span without
// a valid trace and span id and a parent is left out; a malformed batch,
// as protobuf would refuse it, adds nothing.
func (c *modConverter) appendSpans(dst []sdktrace.ReadOnlySpan, mod, batch string) []sdktrace.ReadOnlySpan {
	return c.appendSpansFrom(dst, nil, mod, batch)
}

// appendSpansFrom is appendSpans with the spans' room taken from slab.
func (c *modConverter) appendSpansFrom(dst []sdktrace.ReadOnlySpan, slab *exportSlab, mod, batch string) []sdktrace.ReadOnlySpan {
	n := len(dst)
	r := wireReader{s: batch}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		if num != pb.FieldBatchSpans {
			r.skip(num, typ)
			continue
		}
		msg, ok := r.bytes(num, typ)
		if !ok {
			continue
		}
		s, ok, err := c.span(slab.modSpan(), slab, mod, msg)
		if err != nil {
			r.err = err
			break
		}
		if ok {
			dst = append(dst, s)
		}
	}
	if r.err != nil {
		clear(dst[n:])
		return dst[:n]
	}
	return dst
}

// span decodes one Span into out, a zero span, its attributes' room
// taken from slab; ok is false when it has no valid ids.
func (c *modConverter) span(out *spanRecord, slab *exportSlab, mod, msg string) (_ sdktrace.ReadOnlySpan, ok bool, err error) {
	var (
		tid, sid, pid       string
		kind, code          uint64
		statusMsg, tsHeader string
		scope               string
		events              []sdktrace.Event
		droppedAttrs        int
		droppedEvents       int
	)
	attrs := slab.openAttrs()
	r := wireReader{s: msg}
	for {
		num, typ, more := r.next()
		if !more {
			break
		}
		switch num {
		case pb.FieldSpanTraceID:
			tid, _ = r.bytes(num, typ)
		case pb.FieldSpanSpanID:
			sid, _ = r.bytes(num, typ)
		case pb.FieldSpanParentSpanID:
			pid, _ = r.bytes(num, typ)
		case pb.FieldSpanName:
			out.name, _ = r.str(num, typ)
		case pb.FieldSpanKind:
			kind, _ = r.varint(num, typ)
		case pb.FieldSpanStart:
			if v, ok := r.fixed64(num, typ); ok {
				out.start = unixNano(v)
			}
		case pb.FieldSpanEnd:
			if v, ok := r.fixed64(num, typ); ok {
				out.end = unixNano(v)
			}
		case pb.FieldSpanAttributes:
			if v, ok := r.bytes(num, typ); ok {
				a, err := readAttr(v)
				if err != nil {
					return nil, false, err
				}
				attrs = c.addAttr(attrs, a, c.limits.AttributeCountLimit, &droppedAttrs)
			}
		case pb.FieldSpanEvents:
			if v, ok := r.bytes(num, typ); ok {
				e, err := c.event(v)
				if err != nil {
					return nil, false, err
				}
				events, droppedEvents = c.addEvent(events, e, droppedEvents)
			}
		case pb.FieldSpanStatusCode:
			code, _ = r.varint(num, typ)
		case pb.FieldSpanStatusMessage:
			statusMsg, _ = r.str(num, typ)
		case pb.FieldSpanTraceState:
			tsHeader, _ = r.str(num, typ)
		case pb.FieldSpanScope:
			scope, _ = r.str(num, typ)
		default:
			r.skip(num, typ)
		}
	}
	if r.err != nil {
		return nil, false, r.err
	}
	if len(tid) != 16 || len(sid) != 8 || len(pid) != 8 {
		return nil, false, nil
	}
	var ts trace.TraceState
	if tsHeader != "" {
		ts, _ = trace.ParseTraceState(tsHeader)
	}
	var traceID trace.TraceID
	var spanID, parentID trace.SpanID
	copy(traceID[:], tid)
	copy(spanID[:], sid)
	copy(parentID[:], pid)
	out.sc = trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled, TraceState: ts,
	})
	if !out.sc.IsValid() {
		return nil, false, nil
	}
	out.parent = trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: traceID, SpanID: parentID, TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true,
	})
	out.kind = int32(trace.ValidateSpanKind(trace.SpanKind(int32(kind))))
	switch codes.Code(int32(code)) {
	case codes.Error:
		out.status = sdktrace.Status{Code: codes.Error, Description: statusMsg}
	case codes.Ok:
		out.status = sdktrace.Status{Code: codes.Ok}
	}
	// The host's name for the mod wins over one the mod set itself.
	attrs = c.addAttr(attrs, wireAttr{key: "modkit.mod", value: wireValue{kind: pb.FieldAttrString, str: mod}}, -1, &droppedAttrs)
	out.attrs = slab.closeAttrs(attrs)
	out.events = events
	out.droppedAttrs, out.droppedEvents = int32(droppedAttrs), int32(droppedEvents)
	if scope == "" {
		scope = "mod " + mod
	}
	out.scope = scope
	out.res = c.res
	return out, true, nil
}

// event decodes one SpanEvent.
func (c *modConverter) event(msg string) (sdktrace.Event, error) {
	var e sdktrace.Event
	r := wireReader{s: msg}
	for {
		num, typ, more := r.next()
		if !more {
			return e, r.err
		}
		switch num {
		case pb.FieldEventName:
			e.Name, _ = r.str(num, typ)
		case pb.FieldEventTime:
			if v, ok := r.fixed64(num, typ); ok {
				e.Time = unixNano(v)
			}
		case pb.FieldEventAttributes:
			if v, ok := r.bytes(num, typ); ok {
				a, err := readAttr(v)
				if err != nil {
					return e, err
				}
				e.Attributes = c.addAttr(e.Attributes, a, c.limits.AttributePerEventCountLimit, &e.DroppedAttributeCount)
			}
		default:
			r.skip(num, typ)
		}
	}
}

// addEvent appends e, keeping the latest EventCountLimit events as the
// SDK does.
func (c *modConverter) addEvent(events []sdktrace.Event, e sdktrace.Event, dropped int) ([]sdktrace.Event, int) {
	switch limit := c.limits.EventCountLimit; {
	case limit == 0:
		return events, dropped + 1
	case limit > 0 && len(events) >= limit:
		copy(events, events[1:])
		events[len(events)-1] = e
		return events, dropped + 1
	}
	return append(events, e), dropped
}

// addAttr sets a's key to its value in attrs, a later value replacing an
// earlier one, and counts in dropped an attribute past limit (negative: no
// limit) or without a key or value. Strings are cut to the limit of their
// length.
func (c *modConverter) addAttr(attrs []attribute.KeyValue, a wireAttr, limit int, dropped *int) []attribute.KeyValue {
	var kv attribute.KeyValue
	switch a.value.kind {
	case pb.FieldAttrString:
		kv = attribute.String(a.key, truncate(a.value.str, c.limits.AttributeValueLengthLimit))
	case pb.FieldAttrInt:
		kv = attribute.Int64(a.key, int64(a.value.num))
	case pb.FieldAttrDouble:
		kv = attribute.Float64(a.key, a.value.float())
	case pb.FieldAttrBool:
		kv = attribute.Bool(a.key, a.value.num != 0)
	}
	if !kv.Valid() {
		*dropped++
		return attrs
	}
	for i := range attrs {
		if attrs[i].Key == kv.Key {
			attrs[i] = kv
			return attrs
		}
	}
	if limit >= 0 && len(attrs) >= limit {
		*dropped++
		return attrs
	}
	return append(attrs, kv)
}

// truncate cuts s to its first limit characters; a negative limit keeps
// it whole.
func truncate(s string, limit int) string {
	if limit < 0 || len(s) <= limit {
		return s
	}
	n := 0
	for i := range s {
		if n == limit {
			return s[:i]
		}
		n++
	}
	return s
}

func unixNano(n uint64) time.Time { return time.Unix(0, int64(n)) }

package modtrace

import (
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// appendSpan appends s as field num of a message, encoded as proto.Marshal
// encodes it (fields in the order of their numbers), in one pass: each
// message's length is written once its body is (openMsg, closeMsg). ok is
// false when protobuf would refuse s (a string that is not UTF-8, a nil
// attribute or event) or this encoder does not know all it holds (unknown
// fields), and proto.Marshal should judge it; b is then past its length,
// for the caller to cut.
func appendSpan(b []byte, num protowire.Number, s *pb.Span) (_ []byte, ok bool) {
	if s.HasUnknown() {
		return b, false
	}
	b, at := openMsg(b, num)
	b = appendBytes(b, pb.FieldSpanTraceID, s.TraceId)
	b = appendBytes(b, pb.FieldSpanSpanID, s.SpanId)
	b = appendBytes(b, pb.FieldSpanParentSpanID, s.ParentSpanId)
	if b, ok = appendString(b, pb.FieldSpanName, s.Name); !ok {
		return b, false
	}
	b = appendInt32(b, pb.FieldSpanKind, s.Kind)
	b = appendFixed64(b, pb.FieldSpanStart, s.StartUnixNano)
	b = appendFixed64(b, pb.FieldSpanEnd, s.EndUnixNano)
	for _, a := range s.Attributes {
		if b, ok = appendAttr(b, pb.FieldSpanAttributes, a); !ok {
			return b, false
		}
	}
	for _, e := range s.Events {
		if e == nil || e.HasUnknown() {
			return b, false
		}
		var eAt int
		b, eAt = openMsg(b, pb.FieldSpanEvents)
		if b, ok = appendString(b, pb.FieldEventName, e.Name); !ok {
			return b, false
		}
		b = appendFixed64(b, pb.FieldEventTime, e.TimeUnixNano)
		for _, a := range e.Attributes {
			if b, ok = appendAttr(b, pb.FieldEventAttributes, a); !ok {
				return b, false
			}
		}
		b = closeMsg(b, eAt)
	}
	b = appendInt32(b, pb.FieldSpanStatusCode, s.StatusCode)
	if b, ok = appendString(b, pb.FieldSpanStatusMessage, s.StatusMessage); !ok {
		return b, false
	}
	if b, ok = appendString(b, pb.FieldSpanTraceState, s.TraceState); !ok {
		return b, false
	}
	if b, ok = appendString(b, pb.FieldSpanScope, s.Scope); !ok {
		return b, false
	}
	return closeMsg(b, at), true
}

// appendAttr appends a as field num; ok as for appendSpan.
func appendAttr(b []byte, num protowire.Number, a *pb.SpanAttribute) (_ []byte, ok bool) {
	if a == nil || a.HasUnknown() {
		return b, false
	}
	b, at := openMsg(b, num)
	if b, ok = appendString(b, pb.FieldAttrKey, a.Key); !ok {
		return b, false
	}
	switch v := a.Value.(type) {
	case nil:
	case *pb.SpanAttribute_StringValue:
		if !utf8.ValidString(v.StringValue) {
			return b, false
		}
		b = protowire.AppendTag(b, pb.FieldAttrString, protowire.BytesType)
		b = protowire.AppendString(b, v.StringValue)
	case *pb.SpanAttribute_IntValue:
		b = protowire.AppendTag(b, pb.FieldAttrInt, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(v.IntValue))
	case *pb.SpanAttribute_DoubleValue:
		b = protowire.AppendTag(b, pb.FieldAttrDouble, protowire.Fixed64Type)
		b = protowire.AppendFixed64(b, math.Float64bits(v.DoubleValue))
	case *pb.SpanAttribute_BoolValue:
		b = protowire.AppendTag(b, pb.FieldAttrBool, protowire.VarintType)
		b = protowire.AppendVarint(b, protowire.EncodeBool(v.BoolValue))
	default:
		return b, false
	}
	return closeMsg(b, at), true
}

// openMsg appends the tag of a message field num and one byte of room for
// its length, and returns where that byte is; closeMsg writes the length
// of what was appended after it.
func openMsg(b []byte, num protowire.Number) ([]byte, int) {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return append(b, 0), len(b)
}

// closeMsg writes the length of the message whose body follows b[at], as
// openMsg left it: in that byte when it fits (under 128 bytes), else the
// body moves up to make room for its varint.
func closeMsg(b []byte, at int) []byte {
	n := len(b) - at - 1
	if n < 0x80 {
		b[at] = byte(n)
		return b
	}
	k := protowire.SizeVarint(uint64(n))
	b = append(b, make([]byte, k-1)...)
	copy(b[at+k:], b[at+1:at+1+n])
	protowire.AppendVarint(b[at:at], uint64(n))
	return b
}

// A proto3 field of a zero value is left out; a tag here is one byte.

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// appendString appends a string field; ok is false when v is not UTF-8,
// which proto3 refuses.
func appendString(b []byte, num protowire.Number, v string) ([]byte, bool) {
	if v == "" {
		return b, true
	}
	if !utf8.ValidString(v) {
		return b, false
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, v), true
}

func appendInt32(b []byte, num protowire.Number, v int32) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

func appendFixed64(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}

package modtrace

import (
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// spanSize is the size of s encoded as protobuf; ok is false when protobuf
// would refuse it (a string that is not UTF-8, a nil attribute or event)
// or this encoder does not know all it holds (unknown fields), and
// proto.Marshal should judge it.
func spanSize(s *pb.Span) (n int, ok bool) {
	if s.HasUnknown() || !utf8.ValidString(s.Name) || !utf8.ValidString(s.StatusMessage) ||
		!utf8.ValidString(s.TraceState) || !utf8.ValidString(s.Scope) {
		return 0, false
	}
	n = bytesSize(len(s.TraceId)) + bytesSize(len(s.SpanId)) + bytesSize(len(s.ParentSpanId)) + bytesSize(len(s.Name)) +
		int32Size(s.Kind) + fixed64Size(s.StartUnixNano) + fixed64Size(s.EndUnixNano) +
		int32Size(s.StatusCode) + bytesSize(len(s.StatusMessage)) + bytesSize(len(s.TraceState)) + bytesSize(len(s.Scope))
	for _, a := range s.Attributes {
		m, ok := attrSize(a)
		if !ok {
			return 0, false
		}
		n += 1 + protowire.SizeBytes(m)
	}
	for _, e := range s.Events {
		if e == nil || !utf8.ValidString(e.Name) || e.HasUnknown() {
			return 0, false
		}
		m := bytesSize(len(e.Name)) + fixed64Size(e.TimeUnixNano)
		for _, a := range e.Attributes {
			k, ok := attrSize(a)
			if !ok {
				return 0, false
			}
			m += 1 + protowire.SizeBytes(k)
		}
		n += 1 + protowire.SizeBytes(m)
	}
	return n, true
}

// attrSize is the size of a encoded; ok as for spanSize.
func attrSize(a *pb.SpanAttribute) (int, bool) {
	if a == nil || !utf8.ValidString(a.Key) || a.HasUnknown() {
		return 0, false
	}
	switch v := a.Value.(type) {
	case nil, *pb.SpanAttribute_IntValue, *pb.SpanAttribute_DoubleValue, *pb.SpanAttribute_BoolValue:
	case *pb.SpanAttribute_StringValue:
		if !utf8.ValidString(v.StringValue) {
			return 0, false
		}
	default:
		return 0, false
	}
	return attrLen(a), true
}

// attrLen is the size of a encoded, once attrSize has found it can be.
func attrLen(a *pb.SpanAttribute) int {
	n := bytesSize(len(a.Key))
	switch v := a.Value.(type) {
	case *pb.SpanAttribute_StringValue:
		n += 1 + protowire.SizeBytes(len(v.StringValue))
	case *pb.SpanAttribute_IntValue:
		n += 1 + protowire.SizeVarint(uint64(v.IntValue))
	case *pb.SpanAttribute_DoubleValue:
		n += 1 + 8
	case *pb.SpanAttribute_BoolValue:
		n += 1 + 1
	}
	return n
}

// A proto3 field of a zero value is left out; a tag here is one byte.
func bytesSize(n int) int {
	if n == 0 {
		return 0
	}
	return 1 + protowire.SizeBytes(n)
}

func int32Size(v int32) int {
	if v == 0 {
		return 0
	}
	return 1 + protowire.SizeVarint(uint64(v))
}

func fixed64Size(v uint64) int {
	if v == 0 {
		return 0
	}
	return 1 + 8
}

// appendSpan appends s, of size n as spanSize found, encoded as
// proto.Marshal encodes it: fields in the order of their numbers.
func appendSpan(b []byte, s *pb.Span) []byte {
	b = appendBytes(b, pb.FieldSpanTraceID, s.TraceId)
	b = appendBytes(b, pb.FieldSpanSpanID, s.SpanId)
	b = appendBytes(b, pb.FieldSpanParentSpanID, s.ParentSpanId)
	b = appendString(b, pb.FieldSpanName, s.Name)
	b = appendInt32(b, pb.FieldSpanKind, s.Kind)
	b = appendFixed64(b, pb.FieldSpanStart, s.StartUnixNano)
	b = appendFixed64(b, pb.FieldSpanEnd, s.EndUnixNano)
	for _, a := range s.Attributes {
		b = appendAttr(b, pb.FieldSpanAttributes, a)
	}
	for _, e := range s.Events {
		m := bytesSize(len(e.Name)) + fixed64Size(e.TimeUnixNano)
		for _, a := range e.Attributes {
			m += 1 + protowire.SizeBytes(attrLen(a))
		}
		b = protowire.AppendTag(b, pb.FieldSpanEvents, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(m))
		b = appendString(b, pb.FieldEventName, e.Name)
		b = appendFixed64(b, pb.FieldEventTime, e.TimeUnixNano)
		for _, a := range e.Attributes {
			b = appendAttr(b, pb.FieldEventAttributes, a)
		}
	}
	b = appendInt32(b, pb.FieldSpanStatusCode, s.StatusCode)
	b = appendString(b, pb.FieldSpanStatusMessage, s.StatusMessage)
	b = appendString(b, pb.FieldSpanTraceState, s.TraceState)
	return appendString(b, pb.FieldSpanScope, s.Scope)
}

// appendAttr appends a, which attrSize has checked, as field num.
func appendAttr(b []byte, num protowire.Number, a *pb.SpanAttribute) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(attrLen(a)))
	b = appendString(b, pb.FieldAttrKey, a.Key)
	switch v := a.Value.(type) {
	case *pb.SpanAttribute_StringValue:
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
	}
	return b
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func appendString(b []byte, num protowire.Number, v string) []byte {
	if v == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, v)
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

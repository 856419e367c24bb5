package telemetry

import (
	"errors"
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// errSpanWire is a malformed SpanBatch.
var errSpanWire = errors.New("telemetry: malformed span batch")

// wireReader reads protobuf fields from a string. Strings and bytes it
// returns are substrings of its input: decoding them allocates nothing.
type wireReader struct {
	s   string
	pos int
	err error
}

// next returns the next field's number and type, or false at the end or
// on an error.
func (r *wireReader) next() (protowire.Number, protowire.Type, bool) {
	if r.err != nil || r.pos >= len(r.s) {
		return 0, 0, false
	}
	num, typ, n := consumeTag(r.s[r.pos:])
	if n < 0 {
		r.err = errSpanWire
		return 0, 0, false
	}
	r.pos += n
	return num, typ, true
}

// consumeTag reads a field's tag.
func consumeTag(s string) (protowire.Number, protowire.Type, int) {
	v, n := consumeVarint(s)
	if n < 0 {
		return 0, 0, -1
	}
	num, typ := protowire.DecodeTag(v)
	if num < protowire.MinValidNumber || num > protowire.MaxValidNumber {
		return 0, 0, -1
	}
	return num, typ, n
}

// consumeVarint reads a varint as protowire.ConsumeVarint does.
func consumeVarint(s string) (uint64, int) {
	var v uint64
	for i := 0; i < len(s) && i < 10; i++ {
		b := s[i]
		if i == 9 && b > 1 {
			return 0, -1 // overflow
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, i + 1
		}
	}
	return 0, -1
}

// varint reads a varint value.
func (r *wireReader) varint(num protowire.Number, typ protowire.Type) (uint64, bool) {
	if typ != protowire.VarintType {
		r.skip(num, typ)
		return 0, false
	}
	v, n := consumeVarint(r.s[r.pos:])
	if n < 0 {
		r.err = errSpanWire
		return 0, false
	}
	r.pos += n
	return v, true
}

// fixed64 reads a fixed 64-bit value.
func (r *wireReader) fixed64(num protowire.Number, typ protowire.Type) (uint64, bool) {
	if typ != protowire.Fixed64Type {
		r.skip(num, typ)
		return 0, false
	}
	if len(r.s)-r.pos < 8 {
		r.err = errSpanWire
		return 0, false
	}
	s := r.s[r.pos : r.pos+8]
	r.pos += 8
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56, true
}

// bytes reads a length-delimited value: bytes, a string or a message.
func (r *wireReader) bytes(num protowire.Number, typ protowire.Type) (string, bool) {
	if typ != protowire.BytesType {
		r.skip(num, typ)
		return "", false
	}
	n, m := consumeVarint(r.s[r.pos:])
	if m < 0 || n > uint64(len(r.s)-r.pos-m) {
		r.err = errSpanWire
		return "", false
	}
	r.pos += m
	v := r.s[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return v, true
}

// str reads a string, which proto3 requires to be valid UTF-8.
func (r *wireReader) str(num protowire.Number, typ protowire.Type) (string, bool) {
	v, ok := r.bytes(num, typ)
	if ok && !utf8.ValidString(v) {
		r.err = errSpanWire
		return "", false
	}
	return v, ok
}

// skip moves past a field of a number it does not read, or of a type its
// number does not have: protobuf keeps such a field as unknown.
func (r *wireReader) skip(num protowire.Number, typ protowire.Type) {
	if r.err != nil {
		return
	}
	switch typ {
	case protowire.VarintType:
		r.varint(num, typ)
	case protowire.Fixed64Type:
		r.fixed64(num, typ)
	case protowire.BytesType:
		r.bytes(num, typ)
	case protowire.Fixed32Type:
		if len(r.s)-r.pos < 4 {
			r.err = errSpanWire
			return
		}
		r.pos += 4
	default: // a group, which no message here has: protowire walks it
		n := protowire.ConsumeFieldValue(num, typ, []byte(r.s[r.pos:]))
		if n < 0 {
			r.err = errSpanWire
			return
		}
		r.pos += n
	}
}

// wireValue is a SpanAttribute's value; kind is the oneof's field
// number, 0 for none.
type wireValue struct {
	kind protowire.Number
	str  string
	num  uint64 // the int, the double's bits or the bool
}

// wireAttr is a decoded SpanAttribute.
type wireAttr struct {
	key   string
	value wireValue
}

// readAttr decodes a SpanAttribute.
func readAttr(msg string) (wireAttr, error) {
	var a wireAttr
	r := wireReader{s: msg}
	for {
		num, typ, ok := r.next()
		if !ok {
			return a, r.err
		}
		switch num {
		case pb.FieldAttrKey:
			if v, ok := r.str(num, typ); ok {
				a.key = v
			}
		case pb.FieldAttrString:
			if v, ok := r.str(num, typ); ok {
				a.value = wireValue{kind: pb.FieldAttrString, str: v}
			}
		case pb.FieldAttrInt, pb.FieldAttrBool:
			if v, ok := r.varint(num, typ); ok {
				a.value = wireValue{kind: num, num: v}
			}
		case pb.FieldAttrDouble:
			if v, ok := r.fixed64(num, typ); ok {
				a.value = wireValue{kind: pb.FieldAttrDouble, num: v}
			}
		default:
			r.skip(num, typ)
		}
	}
}

// float returns a double's value.
func (v wireValue) float() float64 { return math.Float64frombits(v.num) }

package protocol

import (
	"unicode/utf8"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// outcomeSpans is the field number of the spans an outcome carries.
var outcomeSpans = (&pb.LaneOutcome{}).ProtoReflect().Descriptor().Fields().ByName("spans").Number()

// cutSpans finds the spans a frame's payload msg carries in field num,
// when that field is its last (protobuf writes it after the outcome and
// the activity): it returns msg without it, to decode, and the spans,
// which point into msg. Decoding them with the rest would copy them. It
// returns msg and nil when the last field is another, or msg does not
// parse as fields; then decoding msg finds the spans, or the error. The
// last of a field repeated wins, as protobuf decodes it.
func cutSpans(msg []byte, num protowire.Number) (rest, spans []byte) {
	for i := 0; i < len(msg); {
		n, typ, k := protowire.ConsumeTag(msg[i:])
		if k < 0 {
			return msg, nil
		}
		v := protowire.ConsumeFieldValue(n, typ, msg[i+k:])
		if v < 0 {
			return msg, nil
		}
		if i+k+v == len(msg) && n == num && typ == protowire.BytesType {
			spans, _ = protowire.ConsumeBytes(msg[i+k:])
			return msg[:i], spans
		}
		i += k + v
	}
	return msg, nil
}

// takeSpans sets *dst to the spans the mod finished, written into a
// pooled buffer, and returns the buffer, for [putSpans] once the frame
// carrying them is written; nil, and *dst unset, when there are none.
func (s *LaneServer) takeSpans(dst *[]byte) *[]byte {
	if s.Spans == nil {
		return nil
	}
	b := getFrame()
	if *b = s.Spans((*b)[:0]); len(*b) == 0 {
		putFrame(b)
		return nil
	}
	*dst = *b
	return b
}

// putSpans gives back takeSpans's buffer, nil or written.
func putSpans(b *[]byte) {
	if b != nil {
		putFrame(b)
	}
}

// callTraceparent is the field number of the traceparent a call carries.
var callTraceparent = (&pb.LaneCall{}).ProtoReflect().Descriptor().Fields().ByName("traceparent").Number()

// maxMoved bounds the field moveField moves: a traceparent's is 57 bytes.
const maxMoved = 96

// moveField moves field num of a frame's payload msg, a string, to msg's
// end, and returns msg without it, to decode, and the string, which
// points into msg: decoding it with the rest would allocate it. The rest
// decodes as msg would, since the field comes once and its place among
// the others changes nothing. ok is false, and msg is untouched, when msg
// does not parse as fields, has the field not once or not as bytes, or
// its value is not UTF-8 (protobuf refuses that) or longer than
// maxMoved: then decoding msg finds the field, or the error.
func moveField(msg []byte, num protowire.Number) (rest []byte, v string, ok bool) {
	at, end := -1, 0
	for i := 0; i < len(msg); {
		n, typ, k := protowire.ConsumeTag(msg[i:])
		if k < 0 {
			return msg, "", false
		}
		m := protowire.ConsumeFieldValue(n, typ, msg[i+k:])
		if m < 0 {
			return msg, "", false
		}
		if n == num {
			if at >= 0 || typ != protowire.BytesType {
				return msg, "", false
			}
			at, end = i, i+k+m
		}
		i += k + m
	}
	if at < 0 || end-at > maxMoved {
		return msg, "", false
	}
	_, _, k := protowire.ConsumeTag(msg[at:])
	value, _ := protowire.ConsumeBytes(msg[at+k : end])
	if !utf8.Valid(value) {
		return msg, "", false
	}
	var field [maxMoved]byte
	f := field[:copy(field[:], msg[at:end])]
	copy(msg[at:], msg[end:])
	cut := len(msg) - len(f)
	copy(msg[cut:], f)
	value = msg[len(msg)-len(value):]
	return msg[:cut], unsafe.String(unsafe.SliceData(value), len(value)), true
}

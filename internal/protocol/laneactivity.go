package protocol

import (
	"errors"
	"slices"
	"unicode/utf8"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// An activity frame's payload, a pb.ActivityBatch, is encoded and decoded
// here by hand, without the reflection of package proto: a live call sends
// one per update. The bytes are those proto.Marshal writes, and decoding
// accepts and refuses what proto.Unmarshal does (FuzzActivityBatch).

// The fields of pb.ActivityBatch and pb.Activity.
const (
	batchUpdates protowire.Number = 1
	activityKind protowire.Number = 1
	activityText protowire.Number = 2
)

var errActivityUTF8 = errors.New("activity text is not valid UTF-8")

// The tags of the short form of an update (shortActivity): one byte each.
const (
	updateTag = byte(batchUpdates)<<3 | byte(protowire.BytesType)
	kindTag   = byte(activityKind)<<3 | byte(protowire.VarintType)
	textTag   = byte(activityText)<<3 | byte(protowire.BytesType)
)

// maxShortText is the longest text of an update of the short form: the
// update's size, 4 bytes more, still fits in one byte's varint.
const maxShortText = 0x7f - 4

// isShort reports whether an update of kind carrying text takes the short
// form, which appendActivityUpdate writes without protowire: a kind from 1
// to 127 and a text of 1 to maxShortText bytes, each length one byte.
func isShort(kind pb.ActivityKind, text string) bool {
	return uint32(kind)-1 < 0x7f && uint(len(text))-1 < maxShortText
}

// shortValid and shortValidBytes are utf8.ValidString and utf8.Valid for
// the texts of short updates (at most maxShortText bytes), inlined: most
// are ASCII, and the bytes before the first that is not ASCII are valid
// whatever follows them.
func shortValid(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return utf8.ValidString(s[i:])
		}
	}
	return true
}

func shortValidBytes(b []byte) bool {
	for i, c := range b {
		if c >= utf8.RuneSelf {
			return utf8.Valid(b[i:])
		}
	}
	return true
}

// validText is utf8.ValidString, quicker for the texts of short updates.
func validText(s string) bool {
	if len(s) <= maxShortText {
		return shortValid(s)
	}
	return utf8.ValidString(s)
}

// appendActivityBatch appends the encoding of a pb.ActivityBatch holding
// u alone. Text that is not UTF-8 is refused, as proto.Marshal refuses it.
func appendActivityBatch(buf []byte, u sdk.ActivityUpdate) ([]byte, error) {
	if !validText(u.Text) {
		return buf, errActivityUTF8
	}
	kind := kindToProto(u.Kind)
	return appendActivityUpdate(buf, kind, u.Text, activitySize(kind, u.Text)), nil
}

// activitySize is the size of a pb.Activity of kind carrying text.
func activitySize(kind pb.ActivityKind, text string) int {
	if isShort(kind, text) {
		return 4 + len(text)
	}
	n := 0
	if kind != 0 {
		n += protowire.SizeTag(activityKind) + protowire.SizeVarint(uint64(kind))
	}
	if text != "" {
		n += protowire.SizeTag(activityText) + protowire.SizeBytes(len(text))
	}
	return n
}

// updateSize is the size of one update of a pb.ActivityBatch whose
// pb.Activity is size bytes: what appendActivityUpdate appends.
func updateSize(size int) int {
	if size < 0x80 {
		return 2 + size
	}
	return protowire.SizeTag(batchUpdates) + protowire.SizeBytes(size)
}

// appendActivityUpdate appends one update of a pb.ActivityBatch, the
// pb.Activity of kind carrying text, whose size is size (activitySize).
// Appended after a batch's encoding, it makes the batch one update longer.
func appendActivityUpdate(buf []byte, kind pb.ActivityKind, text string, size int) []byte {
	if isShort(kind, text) {
		buf = append(buf, updateTag, byte(size), kindTag, byte(kind), textTag, byte(len(text)))
		return append(buf, text...)
	}
	buf = protowire.AppendTag(buf, batchUpdates, protowire.BytesType)
	buf = protowire.AppendVarint(buf, uint64(size))
	if kind != 0 {
		buf = protowire.AppendTag(buf, activityKind, protowire.VarintType)
		buf = protowire.AppendVarint(buf, uint64(kind))
	}
	if text != "" {
		buf = protowire.AppendTag(buf, activityText, protowire.BytesType)
		buf = protowire.AppendString(buf, text)
	}
	return buf
}

// decodeActivityBatch appends to into the updates of the pb.ActivityBatch
// encoded in b.
func decodeActivityBatch(b []byte, into []sdk.ActivityUpdate) ([]sdk.ActivityUpdate, error) {
	into = slices.Grow(into, countUpdates(b))
	err := eachActivity(b, func(u sdk.ActivityUpdate) { into = append(into, u) })
	return into, err
}

// eachActivity calls fn with each update of the pb.ActivityBatch encoded
// in b, in order, until one does not decode; a nil fn only checks that
// every update decodes. The texts point into b, which nothing may write
// again (a frame's payload, which the frame reader never reuses): a batch
// costs no allocation.
func eachActivity(b []byte, fn func(sdk.ActivityUpdate)) error {
	for at := 0; ; {
		u, next, ok, err := nextActivity(b, at)
		if err != nil || !ok {
			return err
		}
		if fn != nil {
			fn(u)
		}
		at = next
	}
}

// nextActivity decodes the first update of the pb.ActivityBatch encoded in
// b that starts at b[at:] or after it, past other fields: the update, its
// text pointing into b (see eachActivity), and where the rest of the batch
// starts; ok is false when no update is left.
func nextActivity(b []byte, at int) (u sdk.ActivityUpdate, next int, ok bool, err error) {
	whole := unsafe.String(unsafe.SliceData(b), len(b))
	for at < len(b) {
		if kind, from, to, short := shortActivity(b[at:]); short {
			// As the mod writes it: the rest of this loop would read the
			// same update from it.
			if !shortValidBytes(b[at+from : at+to]) {
				return u, 0, false, errActivityUTF8
			}
			return sdk.ActivityUpdate{Kind: kindFromProto(kind), Text: whole[at+from : at+to]}, at + to, true, nil
		}
		num, typ, n := consumeTag(b[at:])
		if n < 0 {
			return u, 0, false, protowire.ParseError(n)
		}
		at += n
		if num != batchUpdates || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b[at:]); n < 0 {
				return u, 0, false, protowire.ParseError(n)
			}
			at += n
			continue
		}
		v, n := protowire.ConsumeBytes(b[at:])
		if n < 0 {
			return u, 0, false, protowire.ParseError(n)
		}
		start := at + n - len(v) // where v starts in b
		at += n
		kind, from, to, err := decodeActivity(v)
		if err != nil {
			return u, 0, false, err
		}
		u.Kind = kindFromProto(kind)
		if to > from {
			u.Text = whole[start+from : start+to]
		}
		return u, at, true, nil
	}
	return u, at, false, nil
}

// shortActivity reads, at the start of b, an update of a pb.ActivityBatch
// in the form appendActivityUpdate writes when it is short: its kind, then
// its text, each length one byte. It returns the kind and where the
// text is in b, b[from:to], the update's end; ok false when b does not
// start with such an update (it may still start with another). It does
// not check the text's UTF-8.
func shortActivity(b []byte) (kind pb.ActivityKind, from, to int, ok bool) {
	if len(b) < 6 || b[0] != updateTag || b[1] >= 0x80 || b[2] != kindTag || b[3] >= 0x80 || b[4] != textTag {
		return 0, 0, 0, false
	}
	size, text := int(b[1]), int(b[5])
	if text >= 0x80 || size != 4+text || len(b) < 2+size {
		return 0, 0, 0, false
	}
	return pb.ActivityKind(b[3]), 6, 2 + size, true
}

// countUpdates counts the updates of the pb.ActivityBatch encoded in b,
// stopping where b does not decode.
func countUpdates(b []byte) int {
	count := 0
	for len(b) > 0 {
		num, typ, n := consumeTag(b)
		if n < 0 {
			return count
		}
		b = b[n:]
		if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
			return count
		}
		b = b[n:]
		if num == batchUpdates && typ == protowire.BytesType {
			count++
		}
	}
	return count
}

// decodeActivity decodes one pb.Activity: its kind, and where its text is
// in b, b[from:to]. A field that repeats counts once, its last value, as
// in proto.Unmarshal.
func decodeActivity(b []byte) (kind pb.ActivityKind, from, to int, err error) {
	for at := 0; at < len(b); {
		num, typ, n := consumeTag(b[at:])
		if n < 0 {
			return 0, 0, 0, protowire.ParseError(n)
		}
		at += n
		switch {
		case num == activityKind && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b[at:])
			if n < 0 {
				return 0, 0, 0, protowire.ParseError(n)
			}
			kind, at = pb.ActivityKind(int32(v)), at+n
		case num == activityText && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b[at:])
			if n < 0 {
				return 0, 0, 0, protowire.ParseError(n)
			}
			if !utf8.Valid(v) {
				return 0, 0, 0, errActivityUTF8
			}
			at += n
			from, to = at-len(v), at
		default:
			n := protowire.ConsumeFieldValue(num, typ, b[at:])
			if n < 0 {
				return 0, 0, 0, protowire.ParseError(n)
			}
			at += n
		}
	}
	return kind, from, to, nil
}

// consumeTag is protowire.ConsumeTag, refusing the field numbers past
// protowire.MaxValidNumber that proto.Unmarshal refuses.
func consumeTag(b []byte) (protowire.Number, protowire.Type, int) {
	num, typ, n := protowire.ConsumeTag(b)
	if n >= 0 && num > protowire.MaxValidNumber {
		return 0, 0, -1 // a parse error
	}
	return num, typ, n
}

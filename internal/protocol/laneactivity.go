package protocol

import (
	"errors"
	"unicode/utf8"

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

// appendActivityBatch appends the encoding of a pb.ActivityBatch holding
// u alone. Text that is not UTF-8 is refused, as proto.Marshal refuses it.
func appendActivityBatch(buf []byte, u sdk.ActivityUpdate) ([]byte, error) {
	if !utf8.ValidString(u.Text) {
		return buf, errActivityUTF8
	}
	kind := uint64(ActivityToProto(sdk.ActivityUpdate{Kind: u.Kind}).GetKind())
	n := 0
	if kind != 0 {
		n += protowire.SizeTag(activityKind) + protowire.SizeVarint(kind)
	}
	if u.Text != "" {
		n += protowire.SizeTag(activityText) + protowire.SizeBytes(len(u.Text))
	}
	buf = protowire.AppendTag(buf, batchUpdates, protowire.BytesType)
	buf = protowire.AppendVarint(buf, uint64(n))
	if kind != 0 {
		buf = protowire.AppendTag(buf, activityKind, protowire.VarintType)
		buf = protowire.AppendVarint(buf, kind)
	}
	if u.Text != "" {
		buf = protowire.AppendTag(buf, activityText, protowire.BytesType)
		buf = protowire.AppendString(buf, u.Text)
	}
	return buf, nil
}

// decodeActivityBatch appends to into the updates of the pb.ActivityBatch
// encoded in b.
func decodeActivityBatch(b []byte, into []sdk.ActivityUpdate) ([]sdk.ActivityUpdate, error) {
	for len(b) > 0 {
		num, typ, n := consumeTag(b)
		if n < 0 {
			return into, protowire.ParseError(n)
		}
		b = b[n:]
		if num != batchUpdates || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return into, protowire.ParseError(n)
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return into, protowire.ParseError(n)
		}
		b = b[n:]
		u, err := decodeActivity(v)
		if err != nil {
			return into, err
		}
		into = append(into, u)
	}
	return into, nil
}

// decodeActivity decodes one pb.Activity: a field that repeats counts
// once, its last value, as in proto.Unmarshal.
func decodeActivity(b []byte) (sdk.ActivityUpdate, error) {
	var kind pb.ActivityKind
	var text []byte
	for len(b) > 0 {
		num, typ, n := consumeTag(b)
		if n < 0 {
			return sdk.ActivityUpdate{}, protowire.ParseError(n)
		}
		b = b[n:]
		switch {
		case num == activityKind && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return sdk.ActivityUpdate{}, protowire.ParseError(n)
			}
			kind, b = pb.ActivityKind(int32(v)), b[n:]
		case num == activityText && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return sdk.ActivityUpdate{}, protowire.ParseError(n)
			}
			if !utf8.Valid(v) {
				return sdk.ActivityUpdate{}, errActivityUTF8
			}
			text, b = v, b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return sdk.ActivityUpdate{}, protowire.ParseError(n)
			}
			b = b[n:]
		}
	}
	u := ActivityFromProto(&pb.Activity{Kind: kind})
	u.Text = string(text)
	return u, nil
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

package manifest

import (
	"encoding/json"
	"unicode/utf8"
)

// decodeDoc decodes data, one JSON value and nothing after it but white
// space, as a json.Decoder with UseNumber does (objects as
// map[string]any, the last of a repeated key winning; arrays as []any;
// numbers as json.Number), and reports false when it cannot, leaving the
// error to encoding/json. It reads in one pass, without encoding/json's
// scanner: decoding a manifest into this form, for its schema, was a third
// of loading it.
func decodeDoc(data []byte) (any, bool) {
	d := docDecoder{data: data}
	v, ok := d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	return v, d.pos == len(data)
}

// maxDocDepth is where decodeDoc gives up; encoding/json refuses deeper
// nesting than 10000 with its own error.
const maxDocDepth = 1000

type docDecoder struct {
	data []byte
	pos  int
}

// separator moves past white space and the ',' or close that follows an
// element of an array or a member of an object: end reports close, ok is
// false for anything else.
func (d *docDecoder) separator(close byte) (end, ok bool) {
	d.space()
	if d.pos >= len(d.data) {
		return false, false
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return false, true
	case close:
		d.pos++
		return true, true
	}
	return false, false
}

func (d *docDecoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\r', '\n':
			d.pos++
		default:
			return
		}
	}
}

func (d *docDecoder) value(depth int) (any, bool) {
	d.space()
	if d.pos >= len(d.data) || depth > maxDocDepth {
		return nil, false
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	default:
		return d.number()
	}
}

func (d *docDecoder) literal(word string) bool {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return false
	}
	d.pos += len(word)
	return true
}

func (d *docDecoder) object(depth int) (any, bool) {
	d.pos++ // '{'
	m := map[string]any{}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return m, true
	}
	for {
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, false
		}
		key, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, false
		}
		d.pos++
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		m[key.(string)] = v
		end, ok := d.separator('}')
		if !ok {
			return nil, false
		}
		if end {
			return m, true
		}
	}
}

func (d *docDecoder) array(depth int) (any, bool) {
	d.pos++ // '['
	a := []any{}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return a, true
	}
	for {
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		end, ok := d.separator(']')
		if !ok {
			return nil, false
		}
		if end {
			return a, true
		}
	}
}

// str reads a string. One with escapes, or bytes that are not plain
// UTF-8, is decoded by encoding/json, whose replacements it keeps.
func (d *docDecoder) str() (any, bool) {
	s, ok := d.strValue()
	if !ok {
		return nil, false
	}
	return s, true
}

// strValue is str without the interface.
func (d *docDecoder) strValue() (string, bool) {
	start := d.pos
	d.pos++ // '"'
	plain := true
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			raw := d.data[start:d.pos]
			if plain && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), true
			}
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			d.pos += 2
		case c < 0x20:
			return "", false
		default:
			d.pos++ // non-ASCII bytes: checked whole at the end
		}
	}
	return "", false
}

// number reads a number as JSON's grammar has it.
func (d *docDecoder) number() (any, bool) {
	start := d.pos
	if !d.skipNumber() {
		return nil, false
	}
	return json.Number(d.data[start:d.pos]), true
}

// skipNumber moves past a number and reports whether it was one.
func (d *docDecoder) skipNumber() bool {
	if d.pos < len(d.data) && d.data[d.pos] == '-' {
		d.pos++
	}
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '0':
		d.pos++
	case d.pos < len(d.data) && d.data[d.pos] >= '1' && d.data[d.pos] <= '9':
		d.digits()
	default:
		return false
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if !d.digits() {
			return false
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if !d.digits() {
			return false
		}
	}
	return true
}

// digits moves past one or more digits and reports whether there was one.
func (d *docDecoder) digits() bool {
	start := d.pos
	for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
		d.pos++
	}
	return d.pos > start
}

package words

// The failures of encoding/json, worded for a model: the JSON path, the
// kind of value wanted and what was sent, never a Go type or package. The
// sdk's reflective decoding (tools without a generated decoder) and
// sdk/jsoncheck's fallback decoding both use them.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Problem returns the problem line "/path: what is wrong" for an error
// encoding/json returned decoding data. decode decodes a JSON text into a
// fresh value of the same type: with it Problem finds the property whose
// own decoder (a type's UnmarshalJSON or UnmarshalText) failed, which
// encoding/json does not say.
func Problem(data []byte, err error, decode func([]byte) error) string {
	if se, ok := err.(*json.SyntaxError); ok {
		return fmt.Sprintf("/: invalid JSON at byte %d", se.Offset)
	}
	key := failingKey(data, decode)
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		// encoding/json's own error, placed by its offset; a type's own
		// decoder that returns one unwrapped places it in its own text.
		if p := PathAt(data, te.Offset); key == "" || p == key || strings.HasPrefix(p, key+"/") {
			return p + ": " + Decode(err)
		}
	}
	if key == "" {
		key = "/"
	}
	return key + ": " + Decode(err)
}

// failingKey returns the JSON Pointer of the first property of the object
// data that decode refuses alone, "" when there is none.
func failingKey(data []byte, decode func([]byte) error) string {
	if decode == nil {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return ""
		}
		one, err := json.Marshal(map[string]json.RawMessage{key: raw})
		if err != nil {
			return ""
		}
		if decode(one) != nil {
			return "/" + strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
		}
	}
	return ""
}

// Decode words a decoding failure without its place: encoding/json's
// errors, and the errors of encoding/json, strconv and time that a type's
// own decoder returns, wrapped or not ([Typed]). Any other error is a
// type's own words, quoted after "cannot be decoded: ".
func Decode(err error) string {
	if words, ok := Typed(err); ok {
		return words
	}
	return "cannot be decoded: " + err.Error()
}

// Typed words in JSON terms the first typed error err is or wraps, found
// with errors.As: *json.UnmarshalTypeError, *json.SyntaxError,
// *strconv.NumError or *time.ParseError. It reports false when err holds
// none of them.
func Typed(err error) (string, bool) {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	var ne *strconv.NumError
	var pe *time.ParseError
	switch {
	case errors.As(err, &te):
		return "must be " + kindWords(te.Type) + ", got " + gotWords(te.Value), true
	case errors.As(err, &se):
		return "must hold valid JSON: " + se.Error(), true
	case errors.As(err, &ne):
		return "must be " + numWords(ne) + ", got " + quote(ne.Num), true
	case errors.As(err, &pe):
		return "must be " + TimeWords(pe.Layout) + ", got " + quote(pe.Value), true
	}
	return "", false
}

// numWords says what a strconv parse function wanted.
func numWords(ne *strconv.NumError) string {
	want := "a number"
	switch ne.Func {
	case "ParseInt", "ParseUint", "Atoi":
		want = "an integer"
	case "ParseBool":
		return "true or false"
	}
	if errors.Is(ne.Err, strconv.ErrRange) {
		want += " in range"
	}
	return want
}

// The words of the time formats JSON Schema names.
const (
	// DateTimeWords says what a date-time (format date-time) is.
	DateTimeWords = "an RFC 3339 date-time such as 2026-05-01T12:00:00Z"
	// DateWords says what a date (format date) is.
	DateWords = "a date such as 2026-05-01"
)

// example is the moment the words of other time layouts show.
var example = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// TimeWords says what a time in layout looks like, with an example rather
// than Go's layout.
func TimeWords(layout string) string {
	switch layout {
	case time.RFC3339, time.RFC3339Nano:
		return DateTimeWords
	case time.DateOnly:
		return DateWords
	}
	return "a time such as " + strconv.Quote(example.Format(layout))
}

// gotWords says what was sent, from encoding/json's description of it:
// "a string", or "number 300" with the number.
func gotWords(v string) string {
	switch v {
	case "number":
		return "a number"
	case "string":
		return "a string"
	case "array":
		return "an array"
	case "object":
		return "an object"
	case "bool":
		return "a boolean"
	}
	return v
}

// kindWords says what JSON value a Go type takes.
func kindWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer in range"
	case reflect.Float32, reflect.Float64:
		return "a number in range"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a JSON value"
}

// PathAt returns the JSON Pointer of the value of data that ends at byte
// offset, "/" when there is none.
func PathAt(data []byte, offset int64) string {
	type frame struct {
		array   bool
		index   int
		key     string
		wantKey bool
	}
	var stack []*frame
	path := func() string {
		if len(stack) == 0 {
			return "/"
		}
		var b strings.Builder
		for _, f := range stack {
			b.WriteByte('/')
			if f.array {
				b.WriteString(strconv.Itoa(f.index))
				continue
			}
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(f.key, "~", "~0"), "/", "~1"))
		}
		return b.String()
	}
	// ended marks the end of a value in its container.
	ended := func() {
		if len(stack) > 0 && !stack[len(stack)-1].array {
			stack[len(stack)-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "/"
		}
		if tok == json.Delim('}') || tok == json.Delim(']') {
			stack = stack[:len(stack)-1]
			if dec.InputOffset() == offset {
				return path()
			}
			ended()
			continue
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if !top.array && top.wantKey {
				top.key, _ = tok.(string)
				top.wantKey = false
				continue
			}
			if top.array {
				top.index++
			}
		}
		if tok == json.Delim('{') || tok == json.Delim('[') {
			if dec.InputOffset() == offset {
				return path() // a container where a scalar belongs
			}
			stack = append(stack, &frame{array: tok == json.Delim('['), index: -1, wantKey: true})
			continue
		}
		if dec.InputOffset() == offset {
			return path()
		}
		ended()
	}
}

// Encode words why encoding/json could not encode a value a handler
// returned: what JSON cannot carry, never a Go type.
func Encode(err error) string {
	var me *json.MarshalerError
	if errors.As(err, &me) {
		err = me.Unwrap() // the type's own error, or its invalid output
	}
	var uv *json.UnsupportedValueError
	var ut *json.UnsupportedTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &uv) && strings.HasPrefix(uv.Str, "encountered a cycle"):
		return "it refers to itself, which JSON cannot carry"
	case errors.As(err, &uv):
		return "JSON cannot carry the number " + uv.Str
	case errors.As(err, &ut):
		return "JSON cannot carry " + unsupportedKind(ut.Type)
	case errors.As(err, &se):
		return "it encodes as invalid JSON"
	}
	return err.Error()
}

// unsupportedKind names a kind of Go value JSON cannot carry in words a
// model knows.
func unsupportedKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Chan:
		return "a channel"
	case reflect.Func:
		return "a function"
	case reflect.Complex64, reflect.Complex128:
		return "a complex number"
	}
	return "a value of this kind"
}

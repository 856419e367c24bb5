// Package jsonwords words the failures of encoding/json for a model: the
// JSON path, the kind of value wanted and what was sent, never a Go type
// or package. The sdk's reflective decoding (tools without a generated
// decoder) and sdk/jsoncheck's fallback decoding both use it.
package jsonwords

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Problem returns the problem line "/path: what is wrong" for an error
// encoding/json returned decoding data.
func Problem(data []byte, err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return PathAt(data, te.Offset) + ": " + Decode(err)
	}
	return "/: " + Decode(err)
}

// Decode words a decoding failure without its place.
func Decode(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "must be " + kindWords(te.Type) + ", got " + gotWords(te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	}
	return "cannot be decoded: " + err.Error()
}

// gotWords says what was sent, from encoding/json's description of it:
// "a string", or "number 300" with the number.
func gotWords(v string) string {
	switch v {
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

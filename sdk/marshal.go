package sdk

import (
	"encoding"
	"encoding/json"
	"reflect"
)

// marshalResult encodes a tool's result or a client action's params as
// encoding/json does, except that nil slices and maps encode as [] and {}:
// the output schemas give every array and object field one type, and a
// client that checks structured content against them would refuse null.
// Values of types that encode themselves (json.Marshaler,
// encoding.TextMarshaler) are left to do so. v is not changed.
func marshalResult(v any) ([]byte, error) {
	if v != nil {
		if filled, ok := fillNil(reflect.ValueOf(v), 0); ok {
			v = filled.Interface()
		}
	}
	return json.Marshal(v)
}

// maxFillDepth bounds the walk, as encoding/json bounds its own.
const maxFillDepth = 1000

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// encodesItself reports whether values of t choose their own encoding.
func encodesItself(t reflect.Type) bool {
	return t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)
}

// fillNil returns a copy of v with its nil slices and maps, at any depth,
// made empty, and true; or v and false when there is nothing to fill. It
// copies only what leads to a change.
func fillNil(v reflect.Value, depth int) (reflect.Value, bool) {
	if depth > maxFillDepth || !v.IsValid() || encodesItself(v.Type()) {
		return v, false
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		elem, ok := fillNil(v.Elem(), depth+1)
		if !ok {
			return v, false
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(elem)
		return p, true
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		elem, ok := fillNil(v.Elem(), depth+1)
		if !ok {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(elem)
		return out, true
	case reflect.Struct:
		var out reflect.Value
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			f, ok := fillNil(v.Field(i), depth+1)
			if !ok {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(v.Type()).Elem()
				out.Set(v)
			}
			out.Field(i).Set(f)
		}
		return out, out.IsValid()
	case reflect.Slice:
		if v.IsNil() {
			return reflect.MakeSlice(v.Type(), 0, 0), true
		}
		if v.Type().Elem().Kind() == reflect.Uint8 && !encodesItself(v.Type().Elem()) {
			return v, false // []byte encodes as a base64 string
		}
		var out reflect.Value
		for i := range v.Len() {
			e, ok := fillNil(v.Index(i), depth+1)
			if !ok {
				continue
			}
			if !out.IsValid() {
				out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				reflect.Copy(out, v)
			}
			out.Index(i).Set(e)
		}
		return out, out.IsValid()
	case reflect.Array:
		var out reflect.Value
		for i := range v.Len() {
			e, ok := fillNil(v.Index(i), depth+1)
			if !ok {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(v.Type()).Elem()
				out.Set(v)
			}
			out.Index(i).Set(e)
		}
		return out, out.IsValid()
	case reflect.Map:
		if v.IsNil() {
			return reflect.MakeMap(v.Type()), true
		}
		var out reflect.Value
		for it := v.MapRange(); it.Next(); {
			if _, ok := fillNil(it.Value(), depth+1); ok {
				out = reflect.MakeMapWithSize(v.Type(), v.Len())
				break
			}
		}
		if !out.IsValid() {
			return v, false
		}
		for it := v.MapRange(); it.Next(); {
			e, ok := fillNil(it.Value(), depth+1)
			if !ok {
				e = it.Value()
			}
			out.SetMapIndex(it.Key(), e)
		}
		return out, true
	}
	return v, false
}

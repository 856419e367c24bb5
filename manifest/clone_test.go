package manifest

import (
	"reflect"
	"testing"
)

// fill sets every field of v, at every depth, to a value that is not zero:
// one element in each slice, a pointer to a filled value in each pointer.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint8:
		v.SetUint('x')
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	}
}

// shared names the first slice or pointer of got that points into want's
// memory, or "".
func shared(path string, got, want reflect.Value) string {
	switch got.Kind() {
	case reflect.Pointer:
		if got.IsNil() || want.IsNil() {
			return ""
		}
		if got.Pointer() == want.Pointer() {
			return path
		}
		return shared(path, got.Elem(), want.Elem())
	case reflect.Slice:
		if got.Len() == 0 || want.Len() == 0 {
			return ""
		}
		if got.Pointer() == want.Pointer() {
			return path
		}
		for i := range min(got.Len(), want.Len()) {
			if s := shared(path+"[]", got.Index(i), want.Index(i)); s != "" {
				return s
			}
		}
	case reflect.Struct:
		for i := range got.NumField() {
			if s := shared(path+"."+got.Type().Field(i).Name, got.Field(i), want.Field(i)); s != "" {
				return s
			}
		}
	}
	return ""
}

// TestCloneSharesNothing fills every field of a manifest and checks that
// no slice or pointer of its clone, at any depth, is the original's: a
// caller given a clone cannot change what it was cloned from.
func TestCloneSharesNothing(t *testing.T) {
	t.Parallel()
	var m Manifest
	fill(reflect.ValueOf(&m).Elem())
	if m.Permissions == nil || len(m.Tools) != 1 || m.Tools[0].Annotations == nil || len(m.Resources[0].Scopes) != 1 {
		t.Fatalf("fill left fields empty: %+v", m)
	}
	c := m.Clone()
	if !reflect.DeepEqual(c, &m) {
		t.Fatalf("clone differs: got %+v, want %+v", c, &m)
	}
	if s := shared("Manifest", reflect.ValueOf(c).Elem(), reflect.ValueOf(&m).Elem()); s != "" {
		t.Errorf("clone shares %s with the original", s)
	}
	tc := m.Tools[0].Clone()
	if s := shared("Tool", reflect.ValueOf(tc), reflect.ValueOf(m.Tools[0])); s != "" {
		t.Errorf("tool clone shares %s with the original", s)
	}
}

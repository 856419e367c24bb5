package host

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDecodeManifestSharesOne decodes the same bytes twice: the second
// decode is the first's manifest, not a copy.
func TestDecodeManifestSharesOne(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "research", "mod.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	first, err := decodeManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	second, err := decodeManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	if second != first {
		t.Errorf("second decode: got another manifest, want the first one shared")
	}
}

// scramble changes every string, bool and byte v holds, at every depth,
// in place: through slices and pointers it writes into whatever memory
// they share.
func scramble(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("changed")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Uint8:
		v.SetUint('x')
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			scramble(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			scramble(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scramble(v.Field(i))
			}
		}
	}
}

// TestHostListsShareNothing loads the same mods into two hosts, which
// share their decoded manifests, and changes in place everything the
// first host's listings returned: neither host lists anything else after.
func TestHostListsShareNothing(t *testing.T) {
	dirs := []string{filepath.Join("..", "examples", "research"), filepath.Join("..", "examples", "dependencies")}
	load := func() *Host {
		h, err := Load(dirs, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		return h
	}
	list := func(h *Host) []any {
		tools, err := h.Tools("")
		if err != nil {
			t.Fatal(err)
		}
		return []any{h.Mods(), tools, h.Resources(), h.ResourceTemplates(), h.Prompts()}
	}
	first, second := load(), load()
	want := list(second)
	if len(want[1].([]Tool)) == 0 || len(want[2].([]Resource)) == 0 || len(want[4].([]Prompt)) == 0 {
		t.Fatalf("the example mods list too little: %+v", want)
	}
	scramble(reflect.ValueOf(list(first)))
	if got := list(second); !reflect.DeepEqual(got, want) {
		t.Errorf("the other host lists, after changes to the first's lists:\n%+v\nwant\n%+v", got, want)
	}
	if got := list(first); !reflect.DeepEqual(got, want) {
		t.Errorf("the first host lists, after changes to its lists:\n%+v\nwant\n%+v", got, want)
	}
}

func TestDecodeManifestKeepsRefusing(t *testing.T) {
	data := []byte(`{"formatVersion":"1.0","id":"Bad Id"}`)
	for i := range 2 {
		if _, err := decodeManifest(data); err == nil {
			t.Fatalf("decode %d: got no error for %s", i+1, data)
		}
	}
}

// TestDecodeManifestKeepsNoInput decodes from a buffer, then writes over
// it, as a load reusing its read buffer does: the manifest remembered for
// the first bytes is still found by them, and the new bytes are not taken
// for them.
func TestDecodeManifestKeepsNoInput(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "research", "mod.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	buf := bytes.Clone(data)
	first, err := decodeManifest(buf)
	if err != nil {
		t.Fatal(err)
	}
	copy(buf, bytes.Repeat([]byte(" "), len(buf)))
	if _, err := decodeManifest(buf); err == nil {
		t.Errorf("blank bytes: got no error; the remembered manifest was taken for them")
	}
	again, err := decodeManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, first) {
		t.Errorf("decoding the first bytes again: got %+v, want %+v", again, first)
	}
}

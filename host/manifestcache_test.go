package host

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestDecodeManifestGivesEachCallerItsOwnCopy(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "research", "mod.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	first, err := decodeManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	want := first.Tools[0].Name
	first.Tools[0].Name = "changed"
	first.Tools[0].InputSchema[0] = 'x'
	second, err := decodeManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := second.Tools[0].Name; got != want {
		t.Errorf("second decode: tool name %q, want %q: a caller's change reached another", got, want)
	}
	if second.Tools[0].InputSchema[0] != '{' {
		t.Errorf("second decode: input schema %s: a caller's change reached another", second.Tools[0].InputSchema)
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

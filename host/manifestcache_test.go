package host

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
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

// TestLoadSharedSchemaOneBad loads two mods whose tools all share one
// input schema's bytes, the second mod's second tool of a kind no tool
// has: the first mod loads, and the second is refused, its error naming
// the mod and the tool.
func TestLoadSharedSchemaOneBad(t *testing.T) {
	t.Parallel()
	dirs := writeLoadFleet(t, t.TempDir(), "oneschema", 2, 2)
	path := filepath.Join(dirs[1], manifest.FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kinds := regexp.MustCompile(`"kind": "[a-z]+"`).FindAllIndex(data, -1)
	if len(kinds) != 2 {
		t.Fatalf("got %d tool kinds in %s, want 2", len(kinds), data)
	}
	bad := slices.Concat(data[:kinds[1][0]], []byte(`"kind": "odd"`), data[kinds[1][1]:])
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := Load(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if got := len(h.Mods()); got != 1 {
		t.Errorf("got %d mods loaded, want 1", got)
	}
	bads := h.Unavailable()
	if len(bads) != 1 {
		t.Fatalf("got %d mods unavailable, want 1: %v", len(bads), bads)
	}
	for _, want := range []string{dirs[1], "oneschema001", `tools[1] "oneschema001_tool1"`, "odd"} {
		if msg := bads[0].Err.Error(); !strings.Contains(msg, want) {
			t.Errorf("got error %q, want it to name %q", msg, want)
		}
	}
}

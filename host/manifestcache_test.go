package host

import (
	"os"
	"path/filepath"
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

package research

import (
	"bytes"
	"testing"

	"github.com/modkit/modkit/manifest"
)

// TestManifest checks that the manifest modgen wrote loads through package
// manifest and matches the one compiled into the mod.
func TestManifest(t *testing.T) {
	m, err := manifest.Load(".")
	if err != nil {
		t.Fatalf("load %s (run go generate): %v", manifest.FileName, err)
	}
	if m.ID != "research" {
		t.Errorf("got id %q, want %q", m.ID, "research")
	}
	g := Modkit()
	want, err := manifest.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g.Manifest, want) {
		t.Errorf("the manifest compiled into the mod differs from %s: run go generate", manifest.FileName)
	}
	for _, tool := range m.Tools {
		if _, ok := g.Inputs[tool.Name]; !ok {
			t.Errorf("tool %s has no generated input decoder", tool.Name)
		}
	}
	if got, want := len(m.Tools), len(g.Mod.AI.Tools); got != want {
		t.Errorf("got %d tools in the manifest, want %d", got, want)
	}
}

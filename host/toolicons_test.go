package host_test

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestToolsLendModIcons checks that a tool with no icons of its own is
// listed with its mod's, each listing a copy of them.
func TestToolsLendModIcons(t *testing.T) {
	t.Parallel()
	h := load(t, nil, filepath.Join("..", "examples", "research"))
	want := h.Mods()[0].Icons
	if len(want) == 0 || len(want[0].Sizes) == 0 {
		t.Fatalf("the research mod has icons %v, want some with sizes", want)
	}
	for range 2 { // the first listing's copy is changed before the second
		tools, err := h.Tools("")
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, tool := range tools {
			if tool.Name != "research_word_count" { // declares no icons
				continue
			}
			found = true
			if !reflect.DeepEqual(tool.Icons, want) {
				t.Fatalf("got icons %v, want the mod's %v", tool.Icons, want)
			}
			tool.Icons[0].Sizes[0] = "changed"
		}
		if !found {
			t.Fatal("research_word_count not listed")
		}
	}
}

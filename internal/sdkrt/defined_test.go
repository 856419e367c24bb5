package sdkrt

import "testing"

func TestInInit(t *testing.T) {
	for fn, want := range map[string]bool{
		"example.com/mod.init":              true,
		"example.com/mod.init.0":            true,
		"example.com/mod.init.func1":        true,
		"example.com/mod_test.init":         true,
		"example.com/init/mod.Build":        false,
		"example.com/mod.initMod":           false,
		"example.com/mod.TestX.func1":       false,
		"github.com/modkit/modkit/sdk.init": true,
		"example.com/mod.(*T).init":         false,
		"example.com/a.b/mod.init":          true,
		"example.com/mod.Build.init.func1x": false,
	} {
		if got := inInit(fn); got != want {
			t.Errorf("inInit(%q): got %v, want %v", fn, got, want)
		}
	}
}

// defineMod calls Define as sdk.DefineMod does.
func defineMod(id string, def any) any {
	Define(id, def)
	return def
}

// A package-level variable, as a mod declares its DefineMod value; the
// second of the same id is not the one noted.
var (
	_ = defineMod("at-init", "the first")
	_ = defineMod("at-init", "the second")
)

// TestDefine checks that the mods package-level variables define are
// noted, the first of an id, and a mod defined by a function that runs
// after initialization, such as a test, is not.
func TestDefine(t *testing.T) {
	if got, ok := Defined("at-init"); !ok || got != "the first" {
		t.Errorf("Defined(at-init): got %v, %v; want the first, noted", got, ok)
	}
	defineMod("later", "a mod")
	if _, ok := Defined("later"); ok {
		t.Error("Defined(later): got noted, want a mod defined in a test not noted")
	}
}

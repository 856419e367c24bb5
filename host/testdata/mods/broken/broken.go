// Package broken is a test-only mod that does not compile.
package broken

import "github.com/modkit/modkit/sdk"

// Mod is the broken test mod.
var Mod = sdk.DefineMod(sdk.Mod{Metadata: sdk.Metadata{ID: "broken"}})

var count int = "not a number"

// Modkit stands in for the generated function.
func Modkit() *sdk.Generated { return &sdk.Generated{Mod: Mod} }

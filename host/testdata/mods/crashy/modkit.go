package crashy

import (
	_ "embed"

	"github.com/modkit/modkit/sdk"
)

// This file stands in for what modgen generates: the manifest is written by
// hand and inputs are decoded with encoding/json.

//go:embed mod.manifest.json
var manifestJSON []byte

// Modkit binds the mod to its manifest.
func Modkit() *sdk.Generated {
	return &sdk.Generated{Mod: Mod, Manifest: manifestJSON}
}

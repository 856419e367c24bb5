package onevoice_test

import (
	"testing"

	"github.com/modkit/modkit/examples/dependencies"
	"github.com/modkit/modkit/examples/research"
	"github.com/modkit/modkit/internal/onevoice"
	"github.com/modkit/modkit/sdk"
)

// TestExamples: every tool of the example mods gets the same problems,
// word for word, from the generated validator and from the host's JSON
// Schema fallback on the manifest (then the mod's decoding). The check
// lives here, not beside the examples, which import no internal package,
// as a mod in its own module cannot.
func TestExamples(t *testing.T) {
	t.Parallel()
	for name, g := range map[string]*sdk.Generated{
		"research":     research.Modkit(),
		"dependencies": dependencies.Modkit(),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			onevoice.Check(t, g, onevoice.Inputs)
		})
	}
}

package research

import (
	"testing"

	"github.com/modkit/modkit/internal/onevoice"
)

// TestOneVoice: every tool's input gets the same problems, word for word,
// from the generated validator and from the host's JSON Schema fallback
// on the manifest (then the mod's decoding).
func TestOneVoice(t *testing.T) { onevoice.Check(t, generated(), onevoice.Inputs) }

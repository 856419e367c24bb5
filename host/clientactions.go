package host

import (
	"bytes"

	"github.com/modkit/modkit/manifest"
)

// actionKinds returns the kinds of client action t may emit, from its
// mod's manifest, as copies.
func (t *tool) actionKinds() []manifest.ClientActionKind {
	if len(t.man.ClientActions) == 0 {
		return nil
	}
	out := make([]manifest.ClientActionKind, 0, len(t.man.ClientActions))
	for _, name := range t.man.ClientActions {
		if k := t.mod.man.ClientAction(name); k != nil {
			c := *k
			c.ParamsSchema = bytes.Clone(k.ParamsSchema)
			out = append(out, c)
		}
	}
	return out
}

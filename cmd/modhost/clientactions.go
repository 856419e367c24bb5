package main

import (
	"fmt"
	"io"

	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// showActions tells the person on stderr which client actions a call
// asked for: modhost has no screen to take them on.
func showActions(w io.Writer, actions []sdk.ClientAction) {
	for _, a := range actions {
		fmt.Fprintf(w, "client action %s %s\n", a.Kind, a.Params)
	}
}

// toolActionKinds returns the kinds of client action t of m may emit, in
// the order t lists them.
func toolActionKinds(m *manifest.Manifest, t manifest.Tool) []manifest.ClientActionKind {
	var kinds []manifest.ClientActionKind
	for _, name := range t.ClientActions {
		if k := m.ClientAction(name); k != nil {
			kinds = append(kinds, *k)
		}
	}
	return kinds
}

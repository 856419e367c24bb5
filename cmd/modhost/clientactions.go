package main

import (
	"fmt"
	"io"

	"github.com/modkit/modkit/sdk"
)

// showActions tells the person on stderr which client actions a call
// asked for: modhost has no screen to take them on.
func showActions(w io.Writer, actions []sdk.ClientAction) {
	for _, a := range actions {
		fmt.Fprintf(w, "client action %s %s\n", a.Kind, a.Params)
	}
}

// Package connecthost is a test-only mod that declares two addresses it may connect to, one by IP and one by name: it reaches those hosts only, not their ports on another host.
package connecthost

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"github.com/modkit/modkit/host/testdata/mods/hostile/attempt"
	"github.com/modkit/modkit/sdk"
)

// TargetInput names what to try.
type TargetInput struct {
	// Target is an address, host:port.
	Target string `json:"target"`
}

// Mod is the connecthost test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "connecthost", Description: "Connects where it declares, by IP and by name."},
	Permissions: sdk.Permissions{
		Connect: []string{"127.0.0.1:47613", "localhost:47614"},
	},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[TargetInput]{
			Name:        "connecthost_connect",
			Description: "Tries to connect to the target. Call it to test confinement.",
			Activity:    "Trying…",
			Run: func(_ *sdk.ToolContext, in TargetInput) (sdk.Result, error) {
				text, err := attempt.Connect(in.Target)
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.Text(text), nil
			},
		},
	}},
})

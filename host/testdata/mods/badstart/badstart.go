// Package badstart is a test-only mod that breaks go-plugin's handshake by
// printing to stdout before serving.
package badstart

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"fmt"

	"github.com/modkit/modkit/sdk"
)

func init() { fmt.Println("hello from init, on stdout") }

// Empty takes no input.
type Empty struct{}

// Mod is the badstart test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "badstart", Description: "Breaks the handshake."},
	AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[Empty]{
		Name:        "badstart_ping",
		Description: "Answers pong. Call it to test a mod that cannot start.",
		Activity:    "Pinging…",
		Run:         func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) { return sdk.Text("pong"), nil },
	}}},
})

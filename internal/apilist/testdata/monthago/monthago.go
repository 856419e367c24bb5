// Package monthago is a mod as its author wrote it a month before the API
// check: its test and the program embedding a host use names since
// renamed, which compile as deprecated aliases.
package monthago

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"fmt"

	"github.com/modkit/modkit/sdk"
)

// GreetInput says whom monthago_greet greets.
type GreetInput struct {
	// Name is the person to greet.
	Name string `json:"name" jsonschema:"minLength=1,maxLength=100"`
}

// Mod is the monthago mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "monthago",
		DisplayName: "Month ago",
		Description: "Greets people.",
	},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[GreetInput]{
			Name:        "monthago_greet",
			Description: "Greets a person by name. Call this when you are asked to say hello to someone.",
			Activity:    "Greeting…",
			Run:         greet,
		},
	}},
})

func greet(tc *sdk.ToolContext, in GreetInput) (sdk.Result, error) {
	return sdk.Text(fmt.Sprintf("Hello, %s!", in.Name)), nil
}

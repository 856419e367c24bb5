// Package whoami is a test-only mod whose tools tell who called them, for
// testing that the caller reaches a handler and an approval rule whole,
// and nothing more.
package whoami

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"encoding/json"

	"github.com/modkit/modkit/sdk"
)

// Mod is the whoami test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "whoami", Description: "Tells a handler's caller."},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[struct{}]{
			Name:        "whoami",
			Description: "Returns the caller the handler reads, as JSON. Use this when testing who a call is made for.",
			Activity:    "Looking…",
			Run: func(tc *sdk.ToolContext, _ struct{}) (sdk.Result, error) {
				b, err := json.Marshal(tc.Caller())
				return sdk.Text(string(b)), err
			},
		},
		sdk.PlainTool[struct{}]{
			Name:        "whoami_approved",
			Description: "Asks approval naming its caller, then returns ok. Use this when testing the caller an approval rule reads.",
			Activity:    "Approving…",
			Approval: &sdk.Approval[struct{}]{Ask: func(tc *sdk.ToolContext, _ struct{}) (string, error) {
				return "Run for " + tc.Caller().Subject, nil
			}},
			Run: func(tc *sdk.ToolContext, _ struct{}) (sdk.Result, error) { return sdk.Text("ok"), nil },
		},
	}},
})

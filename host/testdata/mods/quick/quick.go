// Package quick is a test-only mod with no hooks, for measuring the host's
// call path.
package quick

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"strconv"

	"github.com/modkit/modkit/sdk"
)

// EchoInput is what echo returns.
type EchoInput struct {
	// Text is returned as is.
	Text string `json:"text"`
}

// ActivityInput says how many log entries to send.
type ActivityInput struct {
	// Logs is the number of log entries, between a title and a status.
	Logs int `json:"logs" jsonschema:"minimum=0,maximum=1000"`
}

// Mod is the quick test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "quick", Description: "Fast tools for measurements."},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[EchoInput]{
			Name:        "quick_echo",
			Description: "Returns its text. Call it to measure a trivial call.",
			Activity:    "Echoing…",
			Run:         func(tc *sdk.ToolContext, in EchoInput) (sdk.Result, error) { return sdk.Text(in.Text), nil },
		},
		sdk.PlainTool[ActivityInput]{
			Name:        "quick_activity",
			Description: "Sends a title, the log entries and a status. Call it to measure activity streaming.",
			Activity:    "Working…",
			Run: func(tc *sdk.ToolContext, in ActivityInput) (sdk.Result, error) {
				tc.Title("Working")
				for i := range in.Logs {
					tc.Log("step " + strconv.Itoa(i+1))
				}
				tc.Status("done")
				return sdk.Text("ok"), nil
			},
		},
	}},
})

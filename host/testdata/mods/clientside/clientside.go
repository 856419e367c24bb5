// Package clientside is a test-only mod whose tools run in the client
// application: one only there, one in either place, one with a typed
// result, one that needs a person's approval, and a hook that refuses some
// of their calls.
package clientside

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/modkit/modkit/sdk"
)

// PickInput offers choices to a person.
type PickInput struct {
	// Choices are what the person picks from.
	Choices []string `json:"choices" jsonschema:"minItems=1"`
}

// Validate refuses a choice offered twice.
func (in PickInput) Validate() error {
	for i, c := range in.Choices {
		if slices.Contains(in.Choices[:i], c) {
			return errors.New("/choices: " + c + " is offered twice")
		}
	}
	return nil
}

// ClockInput asks for the time.
type ClockInput struct{}

// MeasureInput names an element of the client's screen.
type MeasureInput struct {
	// Element is the element's id.
	Element string `json:"element" jsonschema:"minLength=1"`
}

// MeasureResult is an element's size.
type MeasureResult struct {
	// Width is in pixels.
	Width int `json:"width" jsonschema:"minimum=0"`
}

// EraseInput names an element of the client's screen to erase.
type EraseInput struct {
	// Element is the element's id.
	Element string `json:"element" jsonschema:"minLength=1"`
}

// Mod is the clientside test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "clientside", Description: "Tools the client application runs."},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[PickInput]{
			Name:        "clientside_pick",
			Description: "Asks the person to pick one of the choices. Call it when only the person can decide.",
			Activity:    "Asking…",
			Client:      true,
		},
		sdk.PlainTool[ClockInput]{
			Name:        "clientside_clock",
			Description: "Returns the date. Call it when the date matters.",
			Activity:    "Reading the clock…",
			Run: func(tc *sdk.ToolContext, _ ClockInput) (sdk.Result, error) {
				return sdk.Text("mod: " + tc.Today()), nil
			},
			Client: true,
		},
		sdk.RenderedTool[MeasureInput, MeasureResult]{
			Name:        "clientside_measure",
			Description: "Measures an element on the client's screen. Call it before laying out.",
			Activity:    "Measuring…",
			View:        sdk.View[MeasureInput, MeasureResult]{Text: func(r MeasureResult) string { return "measured" }},
			Client:      true,
		},
		sdk.PlainTool[EraseInput]{
			Name:        "clientside_erase",
			Description: "Erases an element from the client's screen. Call it when the person asks to remove one.",
			Activity:    "Erasing…",
			Annotations: &sdk.Annotations{Destructive: true},
			Approval: &sdk.Approval[EraseInput]{Ask: func(_ *sdk.ToolContext, in EraseInput) (string, error) {
				return "Erase " + in.Element + " from the screen", nil
			}},
			Client: true,
		},
	}},
	Hooks: []sdk.Hook{{
		BeforeAction: sdk.ActionToolCall,
		Run: func(_ context.Context, _ *sdk.Env, a sdk.Action) error {
			if a.Tool == "clientside_pick" && slices.Contains(pickChoices(a.Input), "forbidden") {
				return errors.New("forbidden is not a choice")
			}
			return nil
		},
	}},
})

// pickChoices returns the choices of a clientside_pick input.
func pickChoices(input []byte) []string {
	var in PickInput
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	return in.Choices
}

package sdk_test

import (
	"fmt"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// HighlightParams say which panel the client highlights.
type HighlightParams struct {
	// Panel names the panel.
	Panel string `json:"panel"`
}

// Highlight is a kind of client action: the client highlights a panel.
var Highlight = sdk.ClientActionKind[HighlightParams]{
	Kind:        "highlight_panel",
	Description: "Highlights a panel of the client's screen.",
}

// PanelInput is the input of the show tool.
type PanelInput struct {
	// Panel names the panel to show.
	Panel string `json:"panel"`
}

// A screen-action tool returns text for the model and client actions for
// the client application; nothing else happens on the mod's side.
func Example_clientActions() {
	mod := sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "screen", Description: "Acts on the screen."},
		AI: sdk.AI{Tools: []sdk.Tool{
			sdk.PlainTool[PanelInput]{
				Name:          "screen_show_panel",
				Description:   "Highlights a panel for the person. Call this when they ask where something is shown.",
				Activity:      "Highlighting…",
				ClientActions: []sdk.ClientActionType{Highlight},
				Run: func(tc *sdk.ToolContext, in PanelInput) (sdk.Result, error) {
					return sdk.Result{
						Text:    "The " + in.Panel + " panel is highlighted for the person.",
						Actions: []sdk.ClientAction{Highlight.New(HighlightParams{Panel: in.Panel})},
					}, nil
				},
			},
		}},
	})

	out, err := modtest.Call(&sdk.Generated{Mod: mod}, "screen_show_panel", `{"panel": "diary"}`, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Text)
	for _, a := range out.Actions {
		fmt.Printf("%s %s\n", a.Kind, a.Params)
	}
	// Output:
	// The diary panel is highlighted for the person.
	// highlight_panel {"panel":"diary"}
}

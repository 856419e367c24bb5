package crashy

import (
	"errors"
	"math"

	"github.com/modkit/modkit/sdk"
)

// Mark is the client action crashy_act declares.
var Mark = sdk.ClientActionKind[MarkParams]{
	Kind:        "mark",
	Description: "Marks a line in the client.",
}

// MarkParams say which line to mark.
type MarkParams struct {
	// Line is the line to mark, from 1.
	Line int `json:"line" jsonschema:"minimum=1"`
	// Weight is how strongly to mark it.
	Weight float64 `json:"weight,omitempty"`
}

// ActInput says which client actions crashy_act emits.
type ActInput struct {
	// Acted are passed to ToolContext.Act as given, in order.
	Acted []sdk.ClientAction `json:"acted,omitempty"`
	// Returned are returned in the result, after Acted.
	Returned []sdk.ClientAction `json:"returned,omitempty"`
	// Unencodable adds a mark whose params cannot be encoded as JSON.
	Unencodable bool `json:"unencodable,omitempty"`
	// Fail fails the call after acting.
	Fail bool `json:"fail,omitempty"`
}

// actTool emits the client actions its input asks for.
var actTool = sdk.PlainTool[ActInput]{
	Name:          "crashy_act",
	Description:   "Emits the client actions it is given. Call it to test client actions.",
	Activity:      "Acting…",
	ClientActions: []sdk.ClientActionType{Mark},
	Run: func(tc *sdk.ToolContext, in ActInput) (sdk.Result, error) {
		for _, a := range in.Acted {
			tc.Act(a)
		}
		if in.Fail {
			return sdk.Result{}, errors.New("failed after acting")
		}
		res := sdk.Result{Text: "acted", Actions: in.Returned}
		if in.Unencodable {
			res.Actions = append(res.Actions, Mark.New(MarkParams{Line: 1, Weight: math.NaN()}))
		}
		return res, nil
	},
}

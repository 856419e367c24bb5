package echohooked

import (
	"context"
	"errors"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/sdk"
)

// Mod is the hooked echo.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "echohooked",
		DisplayName: "Benchmark echo, hooked",
		Description: "The echo tool behind a hook on every tool call, to measure what a hook costs.",
	},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[echo.Input]{
			Name:        "echo_hooked",
			Description: "Returns its input as JSON once the mod's hook lets it. Call it to measure the cost of a hook.",
			Activity:    "Echoing…",
			Run: func(_ *sdk.ToolContext, in echo.Input) (sdk.Result, error) {
				reply, err := echo.Reply(in)
				return sdk.Text(reply), err
			},
		},
	}},
	Hooks: []sdk.Hook{{
		BeforeAction: sdk.ActionToolCall,
		Run:          refuseUnsessioned,
	}},
})

// refuseUnsessioned refuses a call outside a session with a workspace, as
// a mod that reads the workspace would: a hook that looks at the call and
// lets it through.
func refuseUnsessioned(_ context.Context, env *sdk.Env, a sdk.Action) error {
	if env.Session.Workspace == "" {
		return errors.New(a.Tool + " needs a workspace")
	}
	return nil
}

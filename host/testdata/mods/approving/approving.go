// Package approving is a test-only mod whose tools need a person's
// approval: always, or as their input says, so the host's tests can show
// approval, denial and cancellation while a person is asked, and client
// actions of a call that needed approval.
package approving

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"context"
	"encoding/json"
	"errors"
	"os"

	"github.com/modkit/modkit/sdk"
)

// GuardedInput says what approving_guarded's approval rule answers.
type GuardedInput struct {
	// Reason is what the person is asked; empty means no approval needed.
	Reason string `json:"reason,omitempty"`
	// Hang makes the rule wait until the call is cancelled.
	Hang bool `json:"hang,omitempty"`
	// Fail makes the rule fail with this message.
	Fail string `json:"fail,omitempty"`
	// Marker is a file the handler writes when it runs.
	Marker string `json:"marker,omitempty"`
	// Blocked makes the mod's hook refuse the call.
	Blocked bool `json:"blocked,omitempty"`
}

// Empty takes no input.
type Empty struct{}

// RevealInput says what approving_reveal shows and how its call ends.
type RevealInput struct {
	// Secret is what the client action shows.
	Secret string `json:"secret"`
	// Fail makes the handler fail after acting.
	Fail bool `json:"fail,omitempty"`
	// Hang makes the handler wait, after acting, until the call is
	// cancelled.
	Hang bool `json:"hang,omitempty"`
}

// RevealParams are the params of a reveal action.
type RevealParams struct {
	// Secret is what the person sees.
	Secret string `json:"secret"`
}

// Reveal shows a secret on the person's screen.
var Reveal = sdk.ClientActionKind[RevealParams]{Kind: "reveal", Description: "Shows a secret on the person's screen."}

// Mod is the approving test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "approving",
		DisplayName: "Approving",
		Description: "Test mod whose tools need approval.",
	},
	// approving_guarded writes its marker file into the workspace.
	Permissions: sdk.Permissions{WriteWorkspace: true},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[GuardedInput]{
			Name:        "approving_guarded",
			Description: "Runs when its input's approval is given. Call it to test approval.",
			Activity:    "Guarding…",
			Approval: &sdk.Approval[GuardedInput]{Ask: func(tc *sdk.ToolContext, in GuardedInput) (string, error) {
				tc.Log("dropped: the handler has not started")
				switch {
				case in.Hang:
					<-tc.Done()
					return "", tc.Err()
				case in.Fail != "":
					return "", errors.New(in.Fail)
				}
				return in.Reason, nil
			}},
			Run: func(tc *sdk.ToolContext, in GuardedInput) (sdk.Result, error) {
				if in.Marker != "" {
					if err := os.WriteFile(in.Marker, []byte("ran"), 0o644); err != nil {
						return sdk.Result{}, err
					}
				}
				return sdk.Text("ran"), nil
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "approving_always",
			Description: "Needs approval before every call. Call it to test approval.",
			Activity:    "Asking…",
			Approval:    &sdk.Approval[Empty]{Reason: "Run approving_always, which changes nothing"},
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				return sdk.Text("ran always"), nil
			},
		},
		sdk.PlainTool[RevealInput]{
			Name:          "approving_reveal",
			Description:   "Shows a secret on the person's screen once they approve. Call it to test approval with client actions.",
			Activity:      "Revealing…",
			Approval:      &sdk.Approval[RevealInput]{Reason: "Show a secret on your screen"},
			ClientActions: []sdk.ClientActionType{Reveal},
			Run: func(tc *sdk.ToolContext, in RevealInput) (sdk.Result, error) {
				tc.Act(Reveal.New(RevealParams{Secret: in.Secret}))
				switch {
				case in.Fail:
					return sdk.Result{}, errors.New("failed after acting")
				case in.Hang:
					tc.Status("acted")
					<-tc.Done()
					return sdk.Result{}, tc.Err()
				}
				return sdk.Text("revealed"), nil
			},
		},
	}},
	Hooks: []sdk.Hook{{
		BeforeAction: sdk.ActionToolCall,
		Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
			var in GuardedInput
			if a.Tool == "approving_guarded" && json.Unmarshal(a.Input, &in) == nil && in.Blocked {
				return errors.New("blocked before anyone was asked")
			}
			return nil
		},
	}},
})

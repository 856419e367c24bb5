// Package asking is a test-only mod whose tools ask questions mid-call:
// a person (forms, a URL), the client's model and the client's roots, so
// the host's tests can answer, decline, dismiss and refuse them.
package asking

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// GreetInput says where the handler records its runs.
type GreetInput struct {
	// Runs is a file the handler appends a line to at each run's start.
	Runs string `json:"runs,omitempty"`
	// Marker is a file the handler writes after its questions.
	Marker string `json:"marker,omitempty"`
}

// Empty takes no input.
type Empty struct{}

// nameForm asks a person's name.
var nameForm = sdk.Form{Key: "name", Message: "What is your name?", Fields: []sdk.Field{
	{Name: "name", Title: "Name", Required: true, MinLength: 1},
}}

// colorForm asks a favourite colour among three.
var colorForm = sdk.Form{Key: "color", Message: "Which colour?", Fields: []sdk.Field{
	{Name: "color", Required: true, Default: "blue", Options: []sdk.Option{{Value: "red"}, {Value: "green"}, {Value: "blue"}}},
}}

// Mod is the asking test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "asking", DisplayName: "Asking", Description: "Test mod whose tools ask questions mid-call."},
	// asking_greet writes its run log and marker into the workspace.
	Permissions: sdk.Permissions{WriteWorkspace: true},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[GreetInput]{
			Name:        "asking_greet",
			Description: "Asks the person's name and colour, then greets them. Call it to test questions.",
			Activity:    "Greeting…",
			Run: func(tc *sdk.ToolContext, in GreetInput) (sdk.Result, error) {
				if in.Runs != "" {
					f, err := os.OpenFile(in.Runs, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
					if err != nil {
						return sdk.Result{}, err
					}
					f.WriteString("run\n")
					f.Close()
				}
				name, err := tc.Ask(nameForm)
				if errors.Is(err, sdk.ErrCannotAsk) {
					return sdk.Text("no name: " + err.Error()), nil
				}
				if err != nil {
					return sdk.Result{}, err
				}
				if !name.Accepted() {
					return sdk.Text("no name: " + string(name.Action)), nil
				}
				color, err := tc.Ask(colorForm)
				if err != nil {
					return sdk.Result{}, err
				}
				if in.Marker != "" {
					if err := os.WriteFile(in.Marker, []byte("greeted"), 0o644); err != nil {
						return sdk.Result{}, err
					}
				}
				return sdk.Text(fmt.Sprintf("Hello %s, %s", name.String("name"), color.String("color"))), nil
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "asking_model",
			Description: "Asks the client's model and roots together. Call it to test sampling and roots.",
			Activity:    "Sampling…",
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				got, err := tc.AskAll(
					sdk.SampleRequest{Key: "capital", Messages: []sdk.Message{{Text: "What is the capital of France?"}}, MaxTokens: 20},
					sdk.RootsQuestion{Key: "roots"},
				)
				if err != nil {
					return sdk.Result{}, err
				}
				var uris []string
				for _, r := range got[1].([]sdk.Root) {
					uris = append(uris, r.URI)
				}
				return sdk.Text(got[0].(sdk.Sampled).Text + " | " + strings.Join(uris, ",")), nil
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "asking_roots",
			Description: "Asks the client's roots by a key of its own. Call it to test keyed roots.",
			Activity:    "Finding roots…",
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				if _, err := tc.AskURL(sdk.URLQuestion{Key: "signin", Message: "Sign in to continue", URL: "https://example.com/signin"}); err != nil {
					return sdk.Result{}, err
				}
				roots, err := tc.AskRoots(sdk.RootsQuestion{Key: "where"})
				if err != nil {
					return sdk.Result{}, err
				}
				var uris []string
				for _, r := range roots {
					uris = append(uris, r.URI)
				}
				return sdk.Text("roots: " + strings.Join(uris, ",")), nil
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "asking_url",
			Description: "Sends the person to a URL. Call it to test URL questions.",
			Activity:    "Signing in…",
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				a, err := tc.AskURL(sdk.URLQuestion{Key: "signin", Message: "Sign in to continue", URL: "https://example.com/signin"})
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.Text("signin: " + string(a.Action)), nil
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "asking_guarded",
			Description: "Needs approval, then asks a name. Call it to test approval as a question.",
			Activity:    "Guarding…",
			Approval:    &sdk.Approval[Empty]{Reason: "Greet someone"},
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				name, err := tc.Ask(nameForm)
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.Text("Hello " + name.String("name")), nil
			},
		},
	}},
})

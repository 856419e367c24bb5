// Package kitchen is a mod that uses every part of the authoring SDK that
// modgen reads.
package kitchen

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modkit/modkit/sdk"
)

// Title of the mod, as a constant expression.
const (
	prefix      = "kitchen"
	DisplayName = "Kitchen " + "Sink"
)

// Query asks for something.
type Query struct {
	// Text is what to look for.
	Text string `json:"text" jsonschema:"minLength=1,maxLength=100"`
	// Max is the most results.
	Max uint8 `json:"max,omitempty" jsonschema:"maximum=50"`
	// After keeps results after this time.
	After *time.Time `json:"after,omitempty"`
	// Opts is an anonymous struct.
	Opts struct {
		Deep  bool                    `json:"deep"`
		Pairs []struct{ K, V string } `json:"pairs,omitempty"`
	} `json:"opts"`
	// Weights maps names to weights.
	Weights map[string]float32 `json:"weights,omitempty"`
}

// Page is one page of results.
type Page[T any] struct {
	Items []T   `json:"items"`
	Total int64 `json:"total"`
}

// Hit is one result.
type Hit struct {
	Path string  `json:"path"`
	Line int     `json:"line"`
	Tree *Branch `json:"tree,omitempty"`
	Note *string `json:"note"`
}

// Branch is a recursive tree.
type Branch struct {
	Name string   `json:"name"`
	Kids []Branch `json:"kids"`
}

// Filter narrows a generic input.
type Filter[T any] struct {
	Only []T `json:"only" jsonschema:"maxItems=3"`
}

// Kind is a kind of thing.
type Kind string

// The kinds.
const (
	KindA Kind = "a"
	KindB Kind = "b"
)

// Growth is what the client shows grow: a tree that inputs use too.
type Growth struct {
	Tree Branch `json:"tree"`
	Kind Kind   `json:"kind,omitempty"`
}

// grow is a kind of client action whose params share $defs with inputs.
var grow = sdk.ClientActionKind[Growth]{Kind: "grow", Description: "Shows a tree growing."}

var find = sdk.RenderedTool[Query, Page[Hit]]{
	Name:        prefix + "_find",
	Description: "Finds hits for a query and returns a page of them. Use this when you need locations.",
	Activity:    "Finding hits…",
	Run: func(tc *sdk.ToolContext, in Query) (Page[Hit], error) {
		return Page[Hit]{}, nil
	},
	View: sdk.View[Query, Page[Hit]]{
		Text:   func(p Page[Hit]) string { return fmt.Sprint(p.Total, " hits") },
		Render: func(s sdk.ViewState[Query, Page[Hit]]) string { return "<p>hits</p>" },
	},
}

var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "kitchen", DisplayName: DisplayName, Description: "Exercises modgen."},
	AI: sdk.AI{Tools: []sdk.Tool{
		find,
		sdk.RenderedTool[Filter[Kind], []Kind]{
			Name:        "kitchen_filter",
			Description: "Filters kinds and returns the kept ones. Call this before kitchen_find.",
			Activity:    "Filtering…",
			Run:         func(*sdk.ToolContext, Filter[Kind]) ([]Kind, error) { return nil, nil },
			View:        sdk.View[Filter[Kind], []Kind]{Text: func(k []Kind) string { return fmt.Sprint(k) }, Render: nil},
		},
		// Same input type as kitchen_find: the two share one validator.
		sdk.PlainTool[Query]{
			Name:        "kitchen_count",
			Description: "Counts the hits for a query. Use this when only the number matters.",
			Activity:    "Counting hits…",
			Scopes:      []string{"kitchen.read"},
			Run:         func(*sdk.ToolContext, Query) (sdk.Result, error) { return sdk.Text("0"), nil },
		},
		&sdk.PlainTool[Branch]{
			Name:        "kitchen_plant",
			Description: "Plants a tree and returns its size. Use this when asked to plant.",
			Activity:    "Planting…",
			Run:         func(*sdk.ToolContext, Branch) (sdk.Result, error) { return sdk.Text("planted"), nil },
			ClientActions: []sdk.ClientActionType{
				grow,
				sdk.ClientActionKind[struct{}]{Kind: "wilt", Description: "Shows the tree wilting."},
			},
		},
	}},
	Commands: []sdk.Command{{ID: "kitchen.clean", Title: "Clean the kitchen", Run: clean, Scopes: []string{"kitchen.clean"}}},
	SlashCommands: []sdk.SlashCommand{{ID: "cook", Description: "Cooks what you name.", Run: cook, Scopes: []string{"kitchen.cook"}}, {
		ID: "recipe", Title: "A recipe", Description: "Writes a recipe.", Prompt: recipe, Complete: dishes,
		Arguments: []sdk.PromptArgument{{Name: "dish", Description: "What to cook.", Required: true}, {Name: "serves"}},
	}},
	Resources: []sdk.Resource{{URI: "kitchen://pantry", Name: "pantry", Title: "Pantry", Description: "What is in the pantry.", MIMEType: "text/plain", Read: pantry, Scopes: []string{"kitchen.read"}}},
	ResourceTemplates: []sdk.ResourceTemplate{{
		URITemplate: "kitchen://recipes/{dish}", Name: "recipe_file", Description: "A recipe by dish.", MIMEType: "text/markdown", Read: recipeFile, Complete: dishes,
		Scopes: []string{"kitchen.read", "recipes.read"},
	}},
	Hooks: []sdk.Hook{
		{BeforeAction: sdk.ActionToolCall, Run: allow},
		{BeforeAction: "command:kitchen.clean", Run: allow},
	},
	Agents: []sdk.Agent{{Name: "chef", Description: "Cooks.", Tools: []string{"kitchen_find"}}, {Name: "idle"}},
})

func clean(context.Context, *sdk.Env, json.RawMessage) (string, error) { return "Clean.", nil }

func cook(_ context.Context, _ *sdk.Env, dish string) (string, error) {
	return "Cooked " + dish + ".", nil
}

func allow(context.Context, *sdk.Env, sdk.Action) error { return nil }

func recipe(_ context.Context, _ *sdk.Env, args map[string]string) ([]sdk.PromptMessage, error) {
	return []sdk.PromptMessage{sdk.UserText("Write a recipe for " + args["dish"] + ".")}, nil
}

func dishes(context.Context, *sdk.Env, sdk.CompletionRequest) (sdk.Completion, error) {
	return sdk.Completion{Values: []string{"soup"}}, nil
}

func pantry(context.Context, *sdk.Env, string) (sdk.ResourceContents, error) {
	return sdk.ResourceContents{Text: "flour"}, nil
}

func recipeFile(_ context.Context, _ *sdk.Env, _ string, vars map[string]string) (sdk.ResourceContents, error) {
	return sdk.ResourceContents{Text: "# " + vars["dish"]}, nil
}

package dependencies

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"github.com/modkit/modkit/sdk"
)

// Mod is the dependencies mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "dependencies",
		DisplayName: "Dependencies",
		Description: "Finds which packages of the workspace's Go module depend on a package, and through which imports.",
		Icons:       []sdk.Icon{{File: "icon.svg", Sizes: []string{"any"}}},
	},
	// The dependencies.toolchain command runs the go command, which reads
	// its Go root; the tools read the workspace only.
	Permissions: sdk.Permissions{
		Run:  []string{"go"},
		Read: []string{"$GOROOT"},
	},
	Commands: []sdk.Command{{
		ID:    "dependencies.toolchain",
		Title: "Say which Go toolchain builds the workspace",
		Run:   toolchain,
	}},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.RenderedTool[InspectInput, InspectResult]{
			Name:  "dependencies_inspect",
			Title: "Find a package's dependents",
			Description: "Lists the packages of the workspace's Go module (or go.work) that import the given package, " +
				"directly, and with transitive true also indirectly with the chain of imports. " +
				"Unknown import paths get a list of close matches. " +
				"Call this before changing or removing a package's API, to see what would be affected.",
			Activity: "Reading the import graph…",
			// It reads the workspace's Go files and nothing else.
			Annotations: &sdk.Annotations{ReadOnly: true, Idempotent: true},
			Run:         inspectTool,
			View: sdk.View[InspectInput, InspectResult]{
				Text:   inspectText,
				Render: renderInspect,
			},
		},
		sdk.PlainTool[ModulesInput]{
			Name:  "dependencies_modules",
			Title: "List the workspace's Go modules",
			Description: "Lists the Go modules of the workspace, each module's path and directory, " +
				"from go.work or else the go.mod at the workspace root; contains keeps the paths containing it. " +
				"Call this to learn the workspace's module paths before asking who imports a package.",
			Activity: "Listing modules…",
			// A client application with the project open (an editor) runs
			// it itself, from its own view of the project, unsaved go.mod
			// and go.work edits included; elsewhere the mod reads the files.
			Annotations: &sdk.Annotations{ReadOnly: true, Idempotent: true},
			Run:         modulesTool,
			Client:      true,
		},
	}},
	SlashCommands: []sdk.SlashCommand{{
		ID:          "deps",
		Title:       "Who imports a package",
		Description: "Shows which workspace packages import a package, directly and indirectly: /deps <import path>.",
		Arguments:   depsArgs,
		Run:         depsSlash,
		Prompt:      depsPrompt,
		Complete:    completePackage,
	}},
	Agents: []sdk.Agent{{
		Name:        "reviewer",
		Description: "Reviews the impact of a change: may inspect dependencies and search the workspace, nothing else.",
		Tools:       []string{"dependencies_inspect", "research_search_workspace"},
	}},
})

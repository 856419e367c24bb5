package research

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"github.com/modkit/modkit/sdk"
)

// Mod is the research mod.
// readOnly is what both tools declare: they only read the workspace, and
// reach nothing beyond it.
var readOnly = &sdk.Annotations{ReadOnly: true, Idempotent: true}

var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "research",
		DisplayName: "Research",
		Description: "Counts words and searches the text files of the workspace.",
		// The manifest embeds the icon: clients show it beside the mod's tools.
		Icons: []sdk.Icon{{File: "icon.svg", Sizes: []string{"any"}}},
	},
	// research_save_note writes notes into the workspace; nothing else
	// needs more than reading it.
	Permissions: sdk.Permissions{WriteWorkspace: true, Env: []string{"HOME"}},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[WordCountInput]{
			Name:  "research_word_count",
			Title: "Count words",
			Description: "Counts the words, lines and characters of a passage of text and returns the counts as one sentence. " +
				"Call this when you need the exact length of a passage, for example to check a word limit.",
			Activity:    "Counting words…",
			Annotations: readOnly,
			Run:         countWords,
		},
		sdk.RenderedTool[SearchInput, SearchResult]{
			Name:  "research_search_workspace",
			Title: "Search the workspace",
			Description: "Searches the text files under the workspace root for a literal string, or a Go regular expression when regex is true, " +
				"and returns the matching lines as path:line excerpt, up to limit. Skips .git, binary files and files over 1 MB. " +
				"Call this when you need to find where something is mentioned or defined in the workspace.",
			Activity:    "Searching the workspace…",
			Annotations: readOnly,
			// A search of a large tree outlives a request: an MCP client
			// gets a task it polls and may cancel, from any replica.
			Task: sdk.TaskRequired,
			Run:  searchWorkspace,
			View: sdk.View[SearchInput, SearchResult]{
				Text:   searchText,
				Render: renderSearch,
			},
		},
		sdk.PlainTool[SaveNoteInput]{
			Name:  "research_save_note",
			Title: "Save a note",
			Icons: []sdk.Icon{{File: "note.svg", Sizes: []string{"any"}}},
			Description: "Writes a note into the workspace as a .md or .txt file at path, making missing directories. " +
				"A person approves each new note; when a file is already at path, they choose whether to overwrite it, append the note or keep both. " +
				"If they decline, do not retry the same note. " +
				"Call this when the person asks you to keep findings, a summary or a to-do list in the workspace.",
			Activity: "Saving the note…",
			// It may overwrite a note: destructive, though writing the same
			// note twice changes nothing more.
			Annotations: &sdk.Annotations{Destructive: true, Idempotent: true},
			Approval:    &sdk.Approval[SaveNoteInput]{Ask: noteApproval},
			// Over HTTP with access tokens, only a token granting
			// notes.write sees and calls it.
			Scopes: []string{"notes.write"},
			Run:    saveNote,
		},
		sdk.PlainTool[OpenFileInput]{
			Name:  "research_open_file",
			Title: "Open a file for the person",
			Description: "Shows the person a text file of the workspace in their editor, at a line: the client opens it; the model reads the line. " +
				"Call this when the person asks to see where something is, for example a hit of research_search_workspace.",
			Activity:      "Opening the file…",
			Annotations:   readOnly,
			Run:           openFile,
			ClientActions: []sdk.ClientActionType{OpenFile},
		},
	}},
	Commands: []sdk.Command{{
		ID:    "research.stats",
		Title: "Count the files in the workspace",
		Run:   workspaceStats,
	}},
	SlashCommands: []sdk.SlashCommand{summarize},
	// The notes research_save_note writes, for a client to read: the
	// index, and each note by its path.
	Resources:         []sdk.Resource{notesIndex},
	ResourceTemplates: []sdk.ResourceTemplate{noteResource},
	Hooks: []sdk.Hook{{
		BeforeAction: sdk.ActionToolCall,
		Run:          refuseWholeDiskSearch,
	}},
	Agents: []sdk.Agent{{
		Name:        "researcher",
		Description: "Answers questions about the workspace by reading it; it cannot change anything.",
		Tools:       []string{"research_word_count", "research_search_workspace"},
	}},
})

package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// ScanInput is the input of the scan tool.
type ScanInput struct {
	// Root is the folder to scan, relative to the workspace.
	Root string `json:"root,omitempty"`
}

// A long call can run as an MCP task, which the client polls and may
// cancel: declare Task and write the handler as any other. It becomes a
// task when it first reports a title or status (or after a second), and
// the task's status message follows them. Clients without tasks, modhost
// call, the workbench and sdk/modtest run it as a plain call; docs/tasks.md
// shows the requests.
func Example_task() {
	scan := sdk.PlainTool[ScanInput]{
		Name:        "tree_scan",
		Description: "Counts the files under a folder. Call this when asked how big a tree is.",
		Activity:    "Scanning…",
		Annotations: &sdk.Annotations{ReadOnly: true}, // safe to run again on another replica
		Task:        sdk.TaskRequired,                 // or sdk.TaskOptional
		Run: func(tc *sdk.ToolContext, in ScanInput) (sdk.Result, error) {
			tc.Title("Scanning the tree")
			for i := 1; i <= 3; i++ {
				if err := tc.Err(); err != nil { // the task was cancelled
					return sdk.Result{}, err
				}
				tc.Status(fmt.Sprintf("Scanned %d of 3 folders…", i))
			}
			return sdk.Text("3 folders, 42 files."), nil
		},
	}
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "tree", Description: "Looks at file trees."},
		AI:       sdk.AI{Tools: []sdk.Tool{scan}},
	})}

	out, err := modtest.Call(g, "tree_scan", `{}`, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Status, out.Text)
	fmt.Println(out.Activity.Title, "/", out.Activity.Status)
	// Output:
	// completed 3 folders, 42 files.
	// Scanning the tree / Scanned 3 of 3 folders…
}

// EditorInput is the input of the unsaved-buffers tool.
type EditorInput struct{}

// A client-executed tool is run by the client application that called it,
// which holds what the mod cannot see. With Client and no Run only a
// client runs it ("runs": "client"); with a Run as well, the mod runs it
// when the client does not ("runs": "either"). The host validates the
// input, runs hooks and approval, then hands the call to the client's
// handler, which gives one sdk.ClientAnswer.
func Example_clientTool() {
	unsaved := sdk.PlainTool[EditorInput]{
		Name:        "editor_unsaved",
		Description: "Lists the editor's unsaved files. Call this before reading a file the person may be editing.",
		Activity:    "Asking the editor…",
		Client:      true,
		Run: func(tc *sdk.ToolContext, _ EditorInput) (sdk.Result, error) {
			return sdk.Text("No editor is attached, so no file is unsaved."), nil
		},
	}
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "editor", Description: "Speaks to the editor."},
		AI:       sdk.AI{Tools: []sdk.Tool{unsaved}},
	})}

	// Without a client that handles the tool, the mod runs it; sdk/modtest's
	// Options.Client scripts a client's answers (see its Example_client).
	out, err := modtest.Call(g, "editor_unsaved", `{}`, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Text)
	// Output:
	// No editor is attached, so no file is unsaved.
}

// A Resource is a document at a fixed URI with a scheme of the mod's own;
// a ResourceTemplate names a family of them with an RFC 6570 level-1
// template, each variable one path segment. Read runs in the mod when a
// client reads; wrap sdk.ErrResourceNotFound for one that does not exist.
// After changing what a resource reads, call Env.ResourceUpdated (keep the
// Env given to Activate for a goroutine that watches the source) or
// ToolContext.ResourceUpdated, and subscribed clients read it again.
func Example_resources() {
	notes := map[string]string{"monday": "Call the plumber.", "tuesday": "Water the plants."}
	mod := sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "diary", Description: "Keeps a diary."},
		Resources: []sdk.Resource{{
			URI:         "diary://index",
			Name:        "diary_index",
			Description: "The days that have a note.",
			MIMEType:    "text/plain",
			Read: func(ctx context.Context, env *sdk.Env, uri string) (sdk.ResourceContents, error) {
				return sdk.ResourceContents{Text: "monday\ntuesday"}, nil
			},
		}},
		ResourceTemplates: []sdk.ResourceTemplate{{
			URITemplate: "diary://notes/{day}",
			Name:        "diary_note",
			Description: "The note of one day.",
			MIMEType:    "text/markdown",
			Read: func(ctx context.Context, env *sdk.Env, uri string, vars map[string]string) (sdk.ResourceContents, error) {
				text, ok := notes[vars["day"]] // a variable is client input: check it
				if !ok {
					return sdk.ResourceContents{}, fmt.Errorf("%w: no note for %q", sdk.ErrResourceNotFound, vars["day"])
				}
				return sdk.ResourceContents{Text: text}, nil
			},
			Complete: func(ctx context.Context, env *sdk.Env, req sdk.CompletionRequest) (sdk.Completion, error) {
				var days []string
				for day := range notes {
					if strings.HasPrefix(day, req.Value) {
						days = append(days, day)
					}
				}
				return sdk.Completion{Values: days}, nil
			},
		}},
	})

	// sdk/modtest's ReadResource reads them as a host does, in a test.
	ctx, env := context.Background(), modtest.Env(nil)
	index, _ := mod.Resources[0].Read(ctx, env, "diary://index")
	fmt.Println(strings.ReplaceAll(index.Text, "\n", ", "))
	note, _ := mod.ResourceTemplates[0].Read(ctx, env, "diary://notes/monday", map[string]string{"day": "monday"})
	fmt.Println(note.Text)
	_, err := mod.ResourceTemplates[0].Read(ctx, env, "diary://notes/sunday", map[string]string{"day": "sunday"})
	fmt.Println(errors.Is(err, sdk.ErrResourceNotFound), err)
	// Output:
	// monday, tuesday
	// Call the plumber.
	// true resource not found: no note for "sunday"
}

// A slash command is also the MCP prompt of the same name. Declare its
// arguments in the order a person types them (each one word, the last the
// rest of the line; required ones first) and give it Run (a message for
// the person), Prompt (messages for a model) or both. A Prompt may ask
// questions through its Env, as a tool's handler does.
func Example_prompt() {
	summarize := sdk.SlashCommand{
		ID:          "summarize",
		Description: "Asks for a summary of a file: /summarize <path> [focus].",
		Arguments: []sdk.PromptArgument{
			{Name: "path", Description: "The file, relative to the workspace.", Required: true},
			{Name: "focus", Description: "What to dwell on."},
		},
		Prompt: func(ctx context.Context, env *sdk.Env, args map[string]string) ([]sdk.PromptMessage, error) {
			ask := "Summarize the file above."
			if args["focus"] != "" {
				ask = "Summarize the file above, dwelling on " + args["focus"] + "."
			}
			return []sdk.PromptMessage{
				{Resource: &sdk.EmbeddedResource{URI: "file:///" + args["path"], ResourceContents: sdk.ResourceContents{Text: "# Plan\nShip on Friday."}}},
				sdk.UserText(ask),
			}, nil
		},
	}
	mod := sdk.DefineMod(sdk.Mod{
		Metadata:      sdk.Metadata{ID: "reader", Description: "Reads files with the model."},
		SlashCommands: []sdk.SlashCommand{summarize},
	})

	// sdk/modtest's GetPrompt gets it as a host does, in a test.
	msgs, err := mod.SlashCommands[0].Prompt(context.Background(), modtest.Env(nil), map[string]string{"path": "plan.md", "focus": "risks"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range msgs {
		if m.Resource != nil {
			fmt.Println("resource", m.Resource.URI)
		} else {
			fmt.Println(m.Role, m.Text)
		}
	}
	// Output:
	// resource file:///plan.md
	// user Summarize the file above, dwelling on risks.
}

// An agent names the tools it may call, of this mod or of others; the host
// enforces the list, and an empty list allows none. A hook runs before a
// host action (any tool call, any command, or one of the mod's commands)
// and blocks it by returning an error that says why.
func Example_agentsAndHooks() {
	mod := sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "library", Description: "Answers from the notes."},
		Agents: []sdk.Agent{{
			Name:        "librarian",
			Description: "Answers questions from the notes; cannot change them.",
			Tools:       []string{"notes_count", "notes_search"},
		}},
		Hooks: []sdk.Hook{{
			BeforeAction: sdk.ActionToolCall,
			Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
				if a.Tool == "notes_search" && env.Session.Workspace == "/" {
					return errors.New("refusing to search the whole disk")
				}
				return nil
			},
		}},
	})

	env := &sdk.Env{Session: sdk.Session{ID: "s1", Workspace: "/"}}
	err := mod.Hooks[0].Run(context.Background(), env, sdk.Action{Name: sdk.ActionToolCall, Tool: "notes_search"})
	fmt.Println(err)
	// Output:
	// refusing to search the whole disk
}

// When the host traces a call, the handler's Context carries the call's
// span: spans started from it nest under the call, and the host exports
// them with its own (a mod configures no exporter). go generate links the
// bridge that does this (sdk/otelbridge) only into a mod whose package
// imports go.opentelemetry.io/otel.
func Example_tracing() {
	_ = sdk.PlainTool[ScanInput]{
		Name:        "feeds_parse",
		Description: "Parses the workspace's feed. Call this when asked what the feed says.",
		Activity:    "Parsing the feed…",
		Run: func(tc *sdk.ToolContext, in ScanInput) (sdk.Result, error) {
			ctx, span := otel.Tracer("example.com/feeds").Start(tc.Context(), "parse feed")
			defer span.End()
			_ = ctx // pass ctx to the work the span covers
			return sdk.Text("The feed has 3 items."), nil
		},
	}
}

// RangeInput is the input of the range tool: a Validate method checks a
// rule that spans fields.
type RangeInput struct {
	// From is the first day, YYYY-MM-DD.
	From string `json:"from" jsonschema:"format=date"`
	// To is the last day, YYYY-MM-DD.
	To string `json:"to" jsonschema:"format=date"`
}

// Validate runs after the structural checks and before the handler; its
// error reaches the model as invalid input.
func (in RangeInput) Validate() error {
	if in.From > in.To {
		return fmt.Errorf("/from: must not be after to (%s), got %s", in.To, in.From)
	}
	return nil
}

// Rules that span an input's fields go in a Validate method (sdk.Validator);
// the call fails as invalid input before Run, which never sees it.
func Example_validate() {
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "cal", Description: "Reads the calendar."},
		AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[RangeInput]{
			Name:        "cal_range",
			Description: "Lists the events between two days. Call this when asked what is planned.",
			Activity:    "Reading the calendar…",
			Run: func(tc *sdk.ToolContext, in RangeInput) (sdk.Result, error) {
				return sdk.Text("No events from " + in.From + " to " + in.To + "."), nil
			},
		}}},
	})}

	for _, input := range []string{`{"from": "2026-03-01", "to": "2026-03-07"}`, `{"from": "2026-03-09", "to": "2026-03-07"}`} {
		out, err := modtest.Call(g, "cal_range", input, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(out.Status, out.Text)
	}
	// Output:
	// completed No events from 2026-03-01 to 2026-03-07.
	// failed Tool failed: invalid input for tool cal_range:
	//   /from: must not be after to (2026-03-07), got 2026-03-09
}

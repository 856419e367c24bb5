// Package sdk is what a mod author writes against: a mod is a Go package
// that declares, as one plain value, the tools an AI model may call and the
// commands, slash commands, hooks and agents a person uses.
//
// This page is the overview. The examples show each feature as code that
// compiles and, where it can, runs: Example_plainTool, Example_renderedTool,
// Example_validate, Example_clientActions, Example_questions,
// Example_cannotAsk, Example_approval, Example_task, Example_clientTool,
// Example_command, Example_prompt, Example_resources, Example_agentsAndHooks,
// Example_permissions and Example_tracing; sdk/modtest's examples test a
// mod. Two pages of the repository's docs directory hold the reference:
// docs/schemas.md (how an input type becomes a schema and a validator) and
// docs/calls.md (what a call does with questions, approval, client tools,
// client actions and tasks under each front end).
//
// # A mod in one declaration
//
// A mod is a library package with one package-level variable built by
// [DefineMod]:
//
//	package notes
//
//	//go:generate go tool modgen
//
//	import "github.com/modkit/modkit/sdk"
//
//	var Mod = sdk.DefineMod(sdk.Mod{
//		Metadata: sdk.Metadata{
//			ID:          "notes",
//			DisplayName: "Notes",
//			Description: "Counts and lists the notes in the workspace.",
//		},
//		AI:            sdk.AI{Tools: []sdk.Tool{ /* PlainTool and RenderedTool values */ }},
//		Commands:      []sdk.Command{ /* ... */ },
//		SlashCommands: []sdk.SlashCommand{ /* ... */ },
//		Hooks:         []sdk.Hook{ /* ... */ },
//		Agents:        []sdk.Agent{ /* ... */ },
//		Resources:     []sdk.Resource{ /* ... */ },
//		Permissions:   sdk.Permissions{ /* ... */ },
//	})
//
// DefineMod registers nothing, starts nothing and reads no file: the value
// is data, and the same value is read by the code generator, served by the
// mod process and run by tests. Names, descriptions, ids, titles and
// activity labels must be constants written in place, because modgen reads
// them from the source without running anything. Handlers (Run functions)
// may be any function, usually named functions declared in the package.
// A mod package imports neither gRPC nor the host (sdk/serve serves it).
// Mod.Activate, when set, runs once when the mod process starts.
//
// # Tools
//
// A [PlainTool] returns text, or text with an [Output] such as an image (in
// Result.Output: text types carry their content as is, other types as
// base64). A [RenderedTool] returns a typed result, which becomes the
// call's structured result with its own schema, and a [View] of it:
// View.Text is what the model reads, View.Render optional HTML for a person,
// shown in a sandboxed frame and called for each [Phase] of the call
// (escape everything you interpolate).
//
// Names are snake_case and unique across every loaded mod, so prefix them
// with the mod's id. A description says what the tool returns and when to
// call it ("Call this when…"): the model chooses tools by it. The activity
// label is present tense and ends with an ellipsis. Say plainly when there
// is nothing ("No notes in 214 files." beats an empty list); a result that
// explains a problem is better than an error, which the model reads as
// "Tool failed: <message>". A Title names the tool for people, [Icon]s
// picture it (a File modgen embeds, or an https URL; the mod's Icons when
// it has none), and [Annotations] say what it does to the world, for
// clients that decide whether to ask before a call; declare them
// truthfully (modgen warns when a tool that sounds like it writes has none).
//
// A tool's input is a Go struct: its json tags, doc comments and
// jsonschema tags become the input schema the model sees (JSON Schema
// 2020-12) and the validator that checks every call, which accepts exactly
// what decodes into the type:
//
//	// CountInput is what notes_count counts.
//	type CountInput struct {
//		// Folder is a folder relative to the workspace root; all notes when empty.
//		Folder string `json:"folder,omitempty" jsonschema:"maxLength=200"`
//		// Limit is the most notes to name.
//		Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=20"`
//	}
//
// Fields are required unless omitempty, omitzero or a pointer; objects are
// closed; a doc comment becomes the field's description, written as the
// sentence a model should read; named types with typed constants are
// enums. Rules that span fields go in a Validate method ([Validator]).
// docs/schemas.md states every rule.
//
// A tool that acts on the person's screen returns client actions of kinds
// declared once as [ClientActionKind] and listed in the tool's
// ClientActions; the generated code and the host check each against its
// schema, and the client takes them when the call completes.
//
// # The tool context
//
// A handler receives a [ToolContext] for its one call:
//
//   - Context, Done and Err: cancellation. Check them between steps of long
//     work and return promptly once the call is cancelled.
//   - Session: the session id and the workspace root the host hands over.
//   - Workspace: that root as an *os.Root, opened once per call and closed
//     when it ends. Read files through it, never by path: it refuses, when
//     a file is opened, a name leading outside the root through ".." or a
//     symbolic link, even one swapped in after a listing. Decide what a file
//     is from the opened handle (Stat on the *os.File), and open without
//     blocking where a FIFO may appear; examples/research shows the pattern.
//     Commands and hooks use Session.OpenWorkspace.
//   - CallID: the host's id for this call.
//   - Caller: who the call is made for, a [Caller]: over MCP's HTTP
//     transport the verified access token's subject, client id, scopes and
//     the claims the operator passes on (modhost mcp --auth-claims); over
//     stdio and on the command line the local user ("local:" and the
//     user's name), holding every scope unless modhost --scopes narrows
//     them. Never the token. modtest.Options.Caller sets it in tests.
//   - Today: the host's date, "YYYY-MM-DD". Never read the wall clock for
//     "today": tests pin the date.
//   - Title, Status and Log: the activity a person watches. The first title
//     wins, each status replaces the one before ("Searching 120 of 2,031
//     files…"), log entries are kept in order and numbered by the host.
//     Updates after the call ended are dropped.
//   - Logger: a log/slog logger that writes to the host's log. A mod never
//     writes to stdout: the plugin protocol uses it.
//   - Ask, AskURL and AskAll: questions to a person mid-call (below).
//   - Act and ResourceUpdated: client actions, and a resource that changed.
//
// Nothing in the context works after Run returns; never keep it. Spans from
// Context nest under the host's trace (Example_tracing).
//
// # Questions, approval and tasks
//
// A handler can ask while it runs: a person, with a [Form] or a
// [URLQuestion] (a sign-in, a payment), several at once with
// [ToolContext.AskAll]. The first run reaches the question and ends with
// [ErrAsking] (return it); once it is answered, the handler runs again from
// the start with the same input, and the question returns the answer. So
// ask first and act after, and keep what runs before a question free of
// side effects. When nobody can be asked, the question returns an error
// wrapping [ErrCannotAsk] at once. This works the same under every front
// end: MCP clients of both protocol revisions, modhost call, modhost dev,
// sdk/modtest (Options.Answers) and an application embedding the host.
//
// A tool's [Approval] makes the host ask a person before Run: always (a
// constant Reason) or when its Ask function, run in the mod on the
// validated input, returns a reason. Declined, the call ends denied and
// Run never runs.
//
// A tool that declares Task ([TaskSupport]) runs, for an MCP client of
// 2026-07-28 on streamable HTTP that declares the tasks extension in its
// request's client capabilities, as a task the client polls and may
// cancel; other clients run it as a plain call:
//
//	{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
//	  "name": "research_search_workspace", "arguments": {"query": "DefineMod"},
//	  "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
//	    "io.modelcontextprotocol/clientCapabilities": {
//	      "extensions": {"io.modelcontextprotocol/tasks": {}}}}}}
//
// A tool with Client set is run by the client application that called it
// when it has a handler for it ([ClientAnswer]), and by the mod otherwise
// (or never, without Run). docs/calls.md says exactly what each front end
// does with questions, approval, tasks and client tools, and
// docs/tasks.md walks through a task's requests.
//
// # Commands, prompts, hooks, agents and resources
//
// A [Command] is run by a person by id, with optional JSON arguments; a
// [SlashCommand] by typing "/id text". Both return a short message and
// receive an [Env] with the session, the date and a logger; they open the
// workspace with [Session.OpenWorkspace], an *os.Root they close when done.
// A slash command is also the MCP prompt of the same name: declare its
// [PromptArgument]s and give it Run, Prompt (messages for a model, each a
// [PromptMessage]) or both; a Prompt may ask questions through its Env.
//
// A [Hook] runs before a host action ([ActionToolCall], [ActionCommandRun]
// or "command:<id>") and blocks it by returning an error. An [Agent] names
// the tools it may call; the host enforces the list.
//
// A [Resource] is a document at a fixed URI with a scheme of the mod's
// own, a [ResourceTemplate] a family of them named by an RFC 6570 level-1
// template; Read runs in the mod when a client reads, returning
// [ResourceContents], and an error wrapping [ErrResourceNotFound] becomes
// MCP's resource-not-found error. [Env.ResourceUpdated] tells subscribed
// clients that a resource changed.
//
// # Permissions
//
// A mod's process may read its session's workspace and what the Go runtime
// needs, and write only its private temporary directory (os.TempDir); on
// Linux the kernel enforces it from before the mod's first init function.
// [Mod.Permissions] declares more, as compile-time constants: writing the
// workspace, TCP endpoints, programs, further paths to read, and the
// environment variables it receives. An operation outside them fails with
// a permission error (errors.Is fs.ErrPermission); a handler that returns
// it, wrapped with %w, gives the model a sentence naming the permission the
// mod lacks and the operator a log line naming what it tried. Declare what
// the tools need and nothing more: people read the list before they
// install a mod.
//
// # Generating, serving and testing
//
// The go:generate line runs modgen, which writes mod.manifest.json (read by
// hosts without starting the mod; see package manifest) and
// zz_generated.modgen.go, which declares
//
//	func Modkit() *sdk.Generated
//
// binding the mod to its manifest and to a generated, reflection-free
// validator for each tool's input ([Generated] and [InputDecoder] exist for
// that file). In the modkit repository itself the line is
// go run github.com/modkit/modkit/cmd/modgen. Commit both files and rerun
// go generate after changing the mod. A mod needs no main: the host writes
// serve.Main(notes.Modkit()) (package sdk/serve) when it builds the mod.
//
// Package sdk/modtest runs tools, commands, slash commands, prompts, hooks,
// resources and views in process, through the same code a mod process runs:
//
//	func TestCount(t *testing.T) {
//		out := modtest.Run(t, notes.Modkit(), "notes_count", `{"folder": "work"}`,
//			&modtest.Options{Workspace: t.TempDir()})
//		if out.Status != modtest.StatusCompleted || out.Text != "0 notes." {
//			t.Errorf("got %s %q, want completed %q", out.Status, out.Text, "0 notes.")
//		}
//	}
//
// Options.Answers answers questions by key, Options.Approver approves,
// Options.Client scripts a client's answers, and Outcome.WantActions checks
// client actions. In the mod's own package, modtest.Run fails the test
// when the generated files are out of date. The mods in the repository's
// examples directory are complete, tested mods to start from.
//
// # A mod in its own module
//
// A mod usually lives in its author's module, which adds modkit's two
// commands as Go 1.24 tool dependencies. While modkit is unpublished, its
// go.mod requires modkit's zero version and replaces it with a checkout
// ($MODKIT), so that no command asks a module proxy for modkit:
//
//	mkdir tasks && cd tasks
//	go mod init example.com/tasks
//	go mod edit -require github.com/modkit/modkit@v0.0.0-00010101000000-000000000000 \
//		-replace github.com/modkit/modkit=$MODKIT \
//		-tool github.com/modkit/modkit/cmd/modgen -tool github.com/modkit/modkit/cmd/modhost
//	go mod tidy
//	go tool modgen init
//	go generate ./...
//	go test ./...
//	go tool modhost --mods . call tasks_greet '{"name":"Ada"}'
//
// modgen init writes a mod named after the directory, with one tool, its
// go:generate line and a modtest test; go tool modhost --mods . mcp serves
// it over MCP. The host builds the mod on first use, rebuilds it when any
// of its inputs changes and refuses stale generated files.
package sdk

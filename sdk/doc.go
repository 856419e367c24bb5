// Package sdk is what a mod author writes against: a mod is a Go package
// that declares, as one plain value, the tools an AI model may call and the
// commands, slash commands, hooks and agents a person uses.
//
// # A mod in one declaration
//
// A mod is a library package with one package-level variable built by
// [DefineMod]:
//
//	package notes
//
//	//go:generate go run github.com/modkit/modkit/cmd/modgen
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
//	})
//
// DefineMod registers nothing, starts nothing and reads no file: the value
// is data, and the same value is read by the code generator, served by the
// mod process and run by tests. Names, descriptions, ids, titles and
// activity labels must be constants written in place, because modgen reads
// them from the source without running anything. Handlers (Run functions)
// may be any function, usually named functions declared in the package.
//
// A mod package must not import gRPC or the host: the serving code lives in
// the separate package sdk/serve.
//
// # Plain tools
//
// A [PlainTool] returns text, or text with an [Output] such as an image. Its
// input is a Go struct; the struct's json tags, doc comments and jsonschema
// tags become the input schema the model sees and the validator that checks
// every call:
//
//	// CountInput is what notes_count counts.
//	type CountInput struct {
//		// Folder is a folder relative to the workspace root; all notes when empty.
//		Folder string `json:"folder,omitempty" jsonschema:"maxLength=200"`
//		// Limit is the most notes to name.
//		Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=20"`
//	}
//
//	sdk.PlainTool[CountInput]{
//		Name:        "notes_count",
//		Description: "Counts the notes in a folder and names the newest. Call this when asked how many notes there are.",
//		Activity:    "Counting notes…",
//		Run: func(tc *sdk.ToolContext, in CountInput) (sdk.Result, error) {
//			ws, err := tc.Workspace() // an *os.Root: nothing outside it opens
//			if err != nil {
//				return sdk.Result{}, err
//			}
//			n, err := countNotes(tc.Context(), ws, in.Folder)
//			if err != nil {
//				return sdk.Result{}, err // the model reads "Tool failed: <message>"
//			}
//			if n == 0 {
//				return sdk.Text("There are no notes in " + in.Folder + "."), nil
//			}
//			return sdk.Text(fmt.Sprintf("%d notes.", n)), nil
//		},
//	}
//
// To return a payload besides the text, such as a chart, set Result.Output;
// text types ("text/*", "application/json") carry their content as is, other
// types as base64:
//
//	return sdk.Result{
//		Text:   "A chart of notes per month, 2025.",
//		Output: &sdk.Output{MimeType: "image/png", Content: base64.StdEncoding.EncodeToString(png)},
//	}, nil
//
// Names are snake_case and unique across every loaded mod, so prefix them
// with the mod's id. A description says what the tool returns and when to
// call it ("Call this when…"): the model chooses tools by it. The activity
// label is present tense and ends with an ellipsis. Say plainly when there
// is nothing ("No notes in 214 files." beats an empty list); a result that
// explains a problem is better than an error.
//
// A Title names the tool for people ("Count notes"), and [Annotations] say
// what it does to the world, for clients that decide whether to ask before a
// call; declare them truthfully (modgen warns when a tool whose name sounds
// like it writes declares none):
//
//	Title:       "Count notes",
//	Annotations: &sdk.Annotations{ReadOnly: true, Idempotent: true},
//
// # Input schemas
//
// modgen derives each tool's input schema (JSON Schema 2020-12) and its
// validator from the input type, by the rules below. The schema describes
// the JSON on the wire, and the validator accepts exactly what decodes
// into the type: a handler never sees input it could not have decoded.
//
// Names and omission follow encoding/json: the json tag's name, else the
// Go name; `json:"-"` leaves a field out and `json:"-,"` names it "-";
// unexported fields are skipped; an untagged embedded struct's fields are
// promoted (the shallower field wins a clash), a tagged one is a nested
// object:
//
//	Query string `json:"query"` // "query"
//	Notes string                // "Notes"
//	Cache *Cache `json:"-"`     // not in the schema
//
// Every field is required, unless it has omitempty or omitzero or is a
// pointer; the bare keywords required and optional in the jsonschema tag
// override that:
//
//	Path  string   `json:"path,omitempty"`                       // optional
//	Since *string  `json:"since"`                                // optional, and may be null
//	Mode  string   `json:"mode,omitempty" jsonschema:"required"` // required after all
//	Tags  []string `json:"tags" jsonschema:"optional"`           // optional after all
//
// Pointers accept null; nothing else does, slices, maps and structs
// included. Objects are closed: a key the type does not have is a problem
// that lists every key it has; keys match case-sensitively, and a key
// given twice is a problem. The input itself must be a JSON object.
//
// Types with a wire form of their own keep it: time.Time is a string in
// format date-time, written as Go's time decoding takes it (upper-case T
// and Z, no leap second, no escapes); time.Duration is an integer count of
// nanoseconds; []byte is base64 text; json.RawMessage and any accept any
// JSON; a type with MarshalText or UnmarshalText is a string (as a map key
// too); a type with only MarshalJSON accepts any JSON. The ",string"
// option puts a number or boolean in a string:
//
//	At    time.Time     `json:"at"`           // "2026-05-01T12:00:00Z"
//	Wait  time.Duration `json:"wait"`         // 1500000000 is 1.5 seconds
//	Count int64         `json:"count,string"` // "42"
//
// The error of a type's own UnmarshalJSON or UnmarshalText is a problem at
// its property. When it is, or wraps with %w, an error of encoding/json,
// strconv or time, the model reads it in JSON terms ("/age: must be an
// integer, got \"John\""), never Go's; any other error is read as written,
// so write it for the model.
//
// Numbers: an integer field accepts 5.0 and 1e2 and gets 5 and 100;
// every integer carries its Go type's range as minimum and maximum, and
// int, int64, uint and uint64 the format int64 or uint64 as well (a
// client's validator that ignores formats still refuses 1e400 by the
// bounds); float32 carries the format float, which the validator
// asserts. A field's own bounds narrower than its type's replace them,
// and then drop the format. No number beyond a 64-bit
// float (about ±1.8e308) is accepted anywhere, in any or json.RawMessage
// neither, nor one written with more than 1000 characters; an integer's
// problem names its own bound. A [N]T array has exactly N items, and its problems point at
// the item ("/point/0").
//
// A named string or integer type declared in the mod's own module, with
// typed constants in its package, is an enum of their values (across
// const blocks, iota evaluated, duplicates dropped); untyped constants do
// not count. Types from the standard library or other modules follow
// their wire form, never their package's constants: time.Month is an
// integer. The bare keyword enum marks a field whose type's constants
// make its enum all the same, and enum= tags make any field an enum:
//
//	type Case string // Case says whether letter case matters.
//
//	const (
//		Sensitive   Case = "sensitive"
//		Insensitive Case = "insensitive"
//	)
//
//	Due time.Month `json:"due" jsonschema:"enum"` // one of 1, 2, …, 12
//
// Descriptions come from doc comments, of the type and of each field (or
// its trailing line comment), without the Go name they start with when the
// rest reads as a sentence: "Limit is the most hits." becomes "The most
// hits.", "Limit caps the hits." becomes "Caps the hits."; a verb that needs
// its subject keeps it ("Options tune the scan." stays as written), so
// write the comment as the sentence a model should read. A tool's input or
// result type without a doc comment is described as "Input of the T tool."
// or "Result of the T tool.". Free text at the end of the jsonschema tag
// replaces the field's comment.
//
// Constraints are key=value items at the start of the jsonschema tag, with
// JSON Schema's keyword names; a value with a comma is quoted as in Go:
//
//	Score float64           `jsonschema:"minimum=0,maximum=1"`               // also exclusiveMinimum, exclusiveMaximum
//	Step  int               `jsonschema:"multipleOf=5"`
//	Name  string            `jsonschema:"minLength=1,maxLength=200"`         // in characters (code points)
//	Code  string            `jsonschema:"pattern=\"^[A-Z]{2,3}$\""`
//	Email string            `jsonschema:"format=email"`                      // also date-time, date, uri, uuid
//	Paths []string          `jsonschema:"minItems=1,maxItems=20,uniqueItems=true"`
//	Env   map[string]string `jsonschema:"minProperties=1,maxProperties=10"` // maps only
//	Speed string            `jsonschema:"enum=fast,enum=slow"`               // one enum= per value
//	Limit int               `json:"limit,omitempty" jsonschema:"default=50,The most hits."`
//	Region string           `jsonschema:"x-mcp-header=Region"`              // MCP clients also send it as the Mcp-Param-Region header
//
// A default is published in the schema and filled in when the key is
// absent, before the handler runs: above, {} gives Limit 50, while
// {"limit":0} gives 0. An unknown key is an error that lists the known
// ones.
//
// Rules on which fields are present go in the jsonschema tag of a blank
// field (_ struct{}); they are published in the schema and checked, with
// the same words, by the mod and by a host that judges with the schema:
//
//	type Contact struct {
//		_       struct{}      `jsonschema:"anyRequired=phone|email,if=contactMethod=phone,then=phone,else=email"`
//		Method  ContactMethod `json:"contactMethod,omitempty"`
//		Phone   string        `json:"phone,omitempty"`
//		Email   string        `json:"email,omitempty"`
//		Address *Address      `json:"address,omitempty"`
//	}
//
//	type Address struct {
//		_    struct{} `jsonschema:"anchor=addressDef"` // its schema's $anchor
//		City string   `json:"city,omitempty"`
//	}
//
// anyRequired=a|b|… needs one or more of the optional properties named
// (allOf [{anyOf [{required [a]}, {required [b]}, …]}]; repeat it for
// several groups); {} reads "/: missing one of the properties "phone" or
// "email"". if=p=v with then=a b and/or else=c (if/then/else) requires the
// optional properties a and b when property p is present and equals v (a
// value of p's type), and c otherwise; one if per struct. anchor=name sets
// the struct's $anchor. Names are JSON names; a name that is no property, or
// a property that is always required, is an error.
//
// Rules that span fields go in a Validate method ([Validator]): it runs
// after the structural checks and before the handler, and its error
// reaches the model as invalid input:
//
//	func (in RangeInput) Validate() error {
//		if in.From > in.To {
//			return fmt.Errorf("/from: must not be after to (%s), got %s", in.To, in.From)
//		}
//		return nil
//	}
//
// # Rendered tools and their views
//
// A [RenderedTool] returns a typed result, which becomes the call's
// structured result with its own schema, and a [View] of it. View.Text is
// required: it is what the model reads, so the model never scrapes HTML.
// View.Render is optional HTML for a person, shown in a sandboxed frame and
// called for each [Phase] of the call:
//
//	sdk.RenderedTool[SearchInput, SearchResult]{
//		Name:        "notes_search",
//		Description: "Finds notes containing a phrase and returns their titles. Call this when asked which notes mention something.",
//		Activity:    "Searching notes…",
//		Run:         searchNotes,
//		View: sdk.View[SearchInput, SearchResult]{
//			Text: func(r SearchResult) string {
//				if len(r.Titles) == 0 {
//					return fmt.Sprintf("No notes mention %q.", r.Phrase)
//				}
//				return strings.Join(r.Titles, "\n")
//			},
//			Render: func(s sdk.ViewState[SearchInput, SearchResult]) string {
//				q := html.EscapeString(s.Input.Phrase)
//				switch s.Phase {
//				case sdk.PhasePreparing: // the model is still writing the input: it may be partial
//					return "<p>Preparing a search…</p>"
//				case sdk.PhaseRunning:
//					return "<p>Searching for <b>" + q + "</b>…</p>"
//				case sdk.PhaseCompleted:
//					return fmt.Sprintf("<p>%d notes mention <b>%s</b>.</p>", len(s.Result.Titles), q)
//				default: // sdk.PhaseFailed
//					return "<p>Search failed: " + html.EscapeString(s.Error) + "</p>"
//				}
//			},
//		},
//	}
//
// Escape everything you interpolate into the HTML.
//
// # Client actions
//
// A tool that acts on the person's screen rather than on data returns a
// result for the model plus client actions, such as opening a file at a
// line; nothing else happens on the mod's side, and the client
// application takes the actions. Declare each kind once, as a typed
// [ClientActionKind] value whose parameters are a struct, list it in the
// ClientActions of each tool that emits it, and build actions with its
// New:
//
//	var OpenFile = sdk.ClientActionKind[OpenFileParams]{
//		Kind:        "open_file",
//		Description: "Opens a file of the workspace in the client's editor at a line.",
//	}
//
//	sdk.PlainTool[OpenFileInput]{
//		Name:          "notes_open",
//		...
//		ClientActions: []sdk.ClientActionType{OpenFile},
//		Run: func(tc *sdk.ToolContext, in OpenFileInput) (sdk.Result, error) {
//			return sdk.Result{
//				Text:    "Asked the client to show plan.md at line 3.",
//				Actions: []sdk.ClientAction{OpenFile.New(OpenFileParams{Path: "plan.md", Line: 3})},
//			}, nil
//		},
//	}
//
// A plain tool returns them in Result.Actions; any tool may also pass them
// to [ToolContext.Act], and a rendered tool must. They reach the client
// only when the call completes, in order (those passed to Act first), each
// as {"kind": "open_file", "params": {...}}. modgen writes every kind's
// params schema into the manifest (clientActions) and names the kinds each
// tool lists; the generated code checks each action before it leaves the
// mod, and the host checks it again against the manifest. An action of a
// kind the tool does not list, or whose params break the schema, fails the
// call with a message naming the action by index and kind:
//
//	Tool failed: tool notes_open returned client action 0 ("open_file"): invalid params: /line: must be at least 1, got 0
//
// The params are held to the schema as strictly as a tool's input; nil
// slices and maps encode as [] and {}, as in results. A host hands the actions to its embedding application in
// CallResult.Actions; `modhost mcp` puts them in the result's structured
// content and _meta; sdk/modtest's Outcome.WantActions asserts on them.
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
//
// Nothing in the context works after Run returns; never keep it.
//
// # Permissions
//
// A mod's process may read its session's workspace and what the Go runtime
// needs, and write only its private temporary directory (os.TempDir); on
// Linux the kernel enforces it from before the mod's first init function.
// [Mod.Permissions] declares more, as compile-time constants: writing the
// workspace, TCP endpoints it may connect to, programs it may run, further
// paths it may read, and the environment variables it receives. An
// operation outside them fails with a permission error (errors.Is
// fs.ErrPermission); a handler that returns it, wrapped with %w, gives the
// model a sentence naming the permission the mod lacks and the operator a
// log line naming what it tried. Declare what the tools need and nothing
// more: people read the list before they install a mod.
//
// # Tracing
//
// When the host traces a call (OpenTelemetry, configured by the host's
// OTEL_* environment), the handler's Context carries the call's span. Start
// spans of your own from it with go.opentelemetry.io/otel, as anywhere:
//
//	ctx, span := otel.Tracer("example.com/tasks").Start(tc.Context(), "parse feed")
//	defer span.End()
//
// They nest under the call, and the host exports them with its own: a mod
// configures no exporter. A call the host does not trace records nothing.
// go generate links the bridge that does this (sdk/otelbridge) only into a
// mod whose package imports go.opentelemetry.io/otel: a mod that does not
// links no OpenTelemetry at all.
//
// # Tools that need a person's approval
//
// A tool that changes what a person cares about can ask them first. Its
// [Approval] holds a constant Reason when every call needs approval, or an
// Ask function that decides from the validated input, in the mod, and
// returns what the person reads ("" runs the call without asking):
//
//	Annotations: &sdk.Annotations{Destructive: true, Idempotent: true},
//	Approval: &sdk.Approval[SaveInput]{Ask: func(tc *sdk.ToolContext, in SaveInput) (string, error) {
//		if exists(tc, in.Path) {
//			return "Overwrite " + in.Path + "; its current text is lost.", nil
//		}
//		return "Create " + in.Path + ".", nil
//	}},
//
// The host runs the rule after the input was validated and the hooks let
// the call through, then asks the approver the embedding application gave
// (modhost call asks on the terminal, modhost mcp through MCP elicitation,
// modhost dev with Approve and Deny in its page).
// When the person declines, the call ends denied and the model reads that
// they declined; Run never runs. With nobody to ask, the call fails,
// saying approval was needed. The wait counts toward neither the call's
// timeout nor its grace period, and a call cancelled while waiting ends
// cancelled. Name the file, the amount or whatever the person weighs in the
// reason, and say when the call overwrites or deletes.
//
// # Questions mid-call
//
// A handler can ask while it runs: a person, with a [Form] (fields with
// defaults and choices) or a [URLQuestion] (a sign-in, a payment); the
// client's model, with a [SampleRequest]; the client, for its [Root]s.
// [ToolContext.Ask], [ToolContext.AskURL], [ToolContext.Sample],
// [ToolContext.Roots] and [ToolContext.AskAll] (several at once) work the
// same under every front end: MCP clients of both protocol revisions,
// modhost call (a terminal prompt, or --answer KEY=VALUE), modhost dev (a
// form in its page), sdk/modtest (Options.Answers) and any application
// embedding the host (host.CallRequest.Asker):
//
//	choice, err := tc.Ask(sdk.Form{
//		Key:     "existing",
//		Message: in.Path + " exists. What should happen to it?",
//		Fields: []sdk.Field{{Name: "action", Required: true, Default: "keep_both",
//			Options: []sdk.Option{{Value: "overwrite", Title: "Overwrite it"}, {Value: "append", Title: "Append"}, {Value: "keep_both", Title: "Keep both"}}}},
//	})
//	if err != nil {
//		return sdk.Result{}, err // sdk.ErrAsking ends this run; see below
//	}
//	if !choice.Accepted() { // declined, or dismissed (sdk.Cancel)
//		return sdk.Text("Nothing was saved: the person said no."), nil
//	}
//	// ... act on choice.String("action")
//
// What a handler sees, exactly: the first run reaches the question, and
// Ask returns [ErrAsking]; the run must end there (return the error; what
// it returns is dropped, and its questions are put to the person). Once
// they answer, the handler is called again from the start, with the same
// input and a fresh ToolContext; this time its first question returns the
// answer at once, and the run goes on to its next question (ErrAsking
// again) or to its result. Answers are matched to questions in the order
// asked, and an answer is used only while the question is the same one
// (same kind, key, message and form); a question that differs and every
// later one are asked anew. The answers travel with the call (over MCP
// 2026-07-28, inside the sealed request state the client sends back), never
// in the mod, so a later run may happen in another mod process. So: ask
// first and act after, keep what runs before a question free of side
// effects, and expect each run's activity in the call's log.
//
// An answer that does not fit the form is refused by the host, in the
// words it uses for a tool's input, and the question is asked again, the
// refusal shown with it, under every front end; the handler only ever sees
// answers that fit. Where the call waits for the answer (an MCP session of
// 2025-11-25, modhost call, modhost dev), a third refusal in a row fails
// the call with it; a client of 2026-07-28 gets the question back with each
// refusal. When nobody can be asked (an
// MCP client that declared no elicitation, sampling or roots; modhost call
// with neither a terminal nor --answer), the question returns an error
// wrapping [ErrCannotAsk] at once: carry on without the answer, or return
// the error and the model reads "the question could not be asked: …" (an
// MCP client of 2026-07-28 or later instead gets the request's error
// MissingRequiredClientCapabilityError, -32021, naming the capability it
// did not declare).
// Approval (below) is one such question, asked by the host before Run.
// A slash command's Prompt asks the same way, through its [Env] (see
// "Prompts: slash commands with arguments").
//
// # Long calls as tasks
//
// A tool that declares Task (see [TaskSupport]) runs, for an MCP client
// that supports tasks, as a task the client polls and may cancel, from
// any replica of a server behind a load balancer:
//
//	Task: sdk.TaskRequired, // or sdk.TaskOptional
//
// The handler is written as any other. The call becomes a task when it
// first reports a title or status (or after a second); its status message
// then follows [ToolContext.Title] and [ToolContext.Status]. Questions
// asked before that are asked in the call itself; questions asked after
// are the task's, and once they are answered the handler runs again from
// the start with the answers, as described above. Cancelling the task
// cancels the handler's context. Annotate a tool Idempotent (or ReadOnly)
// when running it twice is safe: a task whose server stops is then run
// again by another, rather than failed.
//
// Tasks are for MCP clients of revision 2026-07-28 on streamable HTTP
// (modhost mcp --http) that declare the extension
// io.modelcontextprotocol/tasks in a request's client capabilities, its
// _meta:
//
//	{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
//	  "name": "research_search_workspace", "arguments": {"query": "DefineMod"},
//	  "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
//	    "io.modelcontextprotocol/clientCapabilities": {
//	      "extensions": {"io.modelcontextprotocol/tasks": {}}}}}}
//
// (with the headers MCP-Protocol-Version, Mcp-Method: tools/call and
// Mcp-Name: research_search_workspace). Such a client not declaring it
// calls a TaskOptional tool as a plain call and is refused a TaskRequired
// one (-32021). Over stdio, in sessions of 2025-11-25 and earlier, and in
// modhost call, the workbench and sdk/modtest, every call is plain.
// tasks/get answers the task's status (working, input_required,
// completed, failed, cancelled); its statusMessage is the handler's latest
// Title or Status (Log lines are not shown), and its result, once
// completed, the call's. docs/tasks.md walks through the requests.
//
// # Client-executed tools
//
// Some tools are best run by the client application that called them: it
// holds what the mod cannot see (a person's screen, an editor's unsaved
// buffers). Set Client on a PlainTool or RenderedTool. With no Run, only a
// client runs the tool ("runs": "client" in the manifest); with a Run, a
// client runs it when it handles the tool, and the mod otherwise ("runs":
// "either"):
//
//	sdk.PlainTool[ModulesInput]{
//		Name:        "dependencies_modules",
//		Description: "Lists the Go modules of the workspace. Call this …",
//		Activity:    "Listing modules…",
//		Run:         modulesTool, // when no client handles the call
//		Client:      true,
//	}
//
// The tool is defined once: its name, description and input type, and a
// rendered tool's result type. The host validates the input, runs the
// input type's Validate and the hooks, asks for approval when the tool's
// [Approval] says so (the rule runs in the mod, as for any tool), then
// hands the call to the client's handler, which gives exactly one
// [ClientAnswer]: text for the model, a rendered tool's typed result
// (checked against its schema), or an error. An answer carries no client
// actions, since the client acts on its screen itself; a tool only a
// client runs lists no ClientActions (modgen says so).
// A second answer is dropped, a missing one times out, a cancelled call
// ends cancelled, and a client-only tool called with no client handler
// fails saying so. A host with no client of its own (modhost) runs an
// "either" tool in its mod and does not offer a client-only one over MCP.
// sdk/modtest scripts the client's answers.
//
// # Commands, slash commands, hooks and agents
//
// A [Command] is run by a person by id, with optional JSON arguments; a
// [SlashCommand] by typing "/id text". Both return a short message and
// receive an [Env] with the session, the date and a logger. They open the
// workspace with [Session.OpenWorkspace], an *os.Root they close when done,
// so that nothing outside the workspace opens:
//
//	Commands: []sdk.Command{{
//		ID:    "notes.reindex",
//		Title: "Rebuild the notes index",
//		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
//			ws, err := env.Session.OpenWorkspace()
//			if err != nil {
//				return "", err
//			}
//			defer ws.Close()
//			n, err := reindex(ctx, ws.FS())
//			return fmt.Sprintf("Indexed %d notes.", n), err
//		},
//	}},
//	SlashCommands: []sdk.SlashCommand{{
//		ID:          "note",
//		Description: "Shows a note by title: /note <title>.",
//		Run: func(ctx context.Context, env *sdk.Env, text string) (string, error) {
//			ws, err := env.Session.OpenWorkspace()
//			if err != nil {
//				return "", err
//			}
//			defer ws.Close()
//			return readNote(ws, text)
//		},
//	}},
//
// # Prompts: slash commands with arguments
//
// A slash command is also the MCP prompt of the same name: one concept,
// whether a person types it or an MCP client gets it. Declare its
// [PromptArgument]s in the order a person types them (each takes one
// word, the last the rest of the line; required ones first), and give it
// Run (a message for the person), Prompt (messages for a model: text,
// [Image]s and [EmbeddedResource]s, each a [PromptMessage]) or both:
//
//	SlashCommands: []sdk.SlashCommand{{
//		ID:          "summarize",
//		Description: "Asks for a summary of a file: /summarize <path> [focus].",
//		Arguments: []sdk.PromptArgument{
//			{Name: "path", Description: "The file, relative to the workspace.", Required: true},
//			{Name: "focus", Description: "What to dwell on."},
//		},
//		Prompt: func(ctx context.Context, env *sdk.Env, args map[string]string) ([]sdk.PromptMessage, error) {
//			text, err := readFile(env.Session.Workspace, args["path"])
//			return []sdk.PromptMessage{
//				{Resource: &sdk.EmbeddedResource{URI: "file:///" + args["path"], ResourceContents: sdk.ResourceContents{Text: text}}},
//				sdk.UserText("Summarize the file above."),
//			}, err
//		},
//		Complete: completePaths, // optional: values for an argument as it is typed
//	}},
//
// A person typing "/summarize notes.md risks" runs Run with "notes.md
// risks"; a command with only Prompt splits the text into the arguments
// and shows the messages' text. A client getting the prompt runs Prompt;
// a command with only Run gets the arguments' values joined by spaces, and
// its message is the prompt's one user message. The host refuses a
// missing required argument, or one the command does not declare, before
// the mod sees them. modgen checks the declarations with the rules
// manifest.Validate applies.
//
// A Prompt can ask questions while it runs, with [Env.Ask], [Env.AskURL],
// [Env.Sample], [Env.Roots] and [Env.AskAll]: the same questions, answers
// and runs as a tool's (see "Questions mid-call"). The first run ends at
// the question ([ErrAsking]: return it); once it is answered, the prompt
// is got again from the start, for the same arguments, and the question
// returns the answer. An MCP client of 2026-07-28 gets prompts/get's
// input_required result with a sealed requestState bound to the prompt
// and its arguments; an older client, elicitation/create within
// prompts/get; the host API, host.GetPromptAsking with an Asker;
// sdk/modtest, GetPrompt with Options.Answers. For a person typing the
// command, nothing is asked: the questions return [ErrCannotAsk].
//
// # Resources
//
// A [Resource] is a document at a fixed URI with a scheme of the mod's
// own; a [ResourceTemplate] a family of them named by an RFC 6570 level-1
// template ("notes://{name}": each variable one path segment). Their Read
// handlers run in the mod when a client reads them, and return
// [ResourceContents], text or a blob; wrap [ErrResourceNotFound] for a
// resource that does not exist, which clients get as MCP's
// resource-not-found error. A template's Complete suggests values for a
// variable. A mod says a resource changed with [Env.ResourceUpdated] (or,
// in a tool that wrote it, [ToolContext.ResourceUpdated]):
// keep the Env given to Activate to call it from a goroutine that watches
// the source, and the host tells the clients subscribed to it.
//
// A [Hook] runs before a host action: [ActionToolCall] (any tool call of any
// mod), [ActionCommandRun] (any command), or "command:<id>" for one of the
// mod's own commands. Returning an error blocks the action, and its text
// says why:
//
//	Hooks: []sdk.Hook{{
//		BeforeAction: sdk.ActionToolCall,
//		Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
//			if a.Tool == "notes_search" && env.Session.Workspace == "/" {
//				return errors.New("refusing to search the whole disk")
//			}
//			return nil
//		},
//	}},
//
// An [Agent] names the tools it may call, of this mod or of others; the host
// enforces the list, and an empty list allows none:
//
//	Agents: []sdk.Agent{{
//		Name:        "librarian",
//		Description: "Answers questions from the notes; cannot change them.",
//		Tools:       []string{"notes_count", "notes_search"},
//	}},
//
// Mod.Activate, when set, runs once when the mod process starts.
//
// # Generating the manifest and validators
//
// Put this line in the file that declares the mod and run go generate:
//
//	//go:generate go tool modgen
//
// (in the modkit repository itself: go run github.com/modkit/modkit/cmd/modgen).
// modgen writes mod.manifest.json (read by hosts without starting the mod;
// see package manifest) and zz_generated.modgen.go, which declares
//
//	func Modkit() *sdk.Generated
//
// binding the mod to its manifest and to a generated, reflection-free
// validator for each tool's input ([Generated] and [InputDecoder] exist for
// that file). Problems are reported by JSON path, in words a model can act
// on ("/limit: must be at most 50, got 80"). Commit both files and rerun go
// generate after changing the mod.
//
// # Serving
//
// A mod binary's main is one line, and the host writes it for you when it
// builds the mod, so a mod package needs no main:
//
//	package main
//
//	import (
//		notes "example.com/mods/notes"
//		"github.com/modkit/modkit/sdk/serve"
//	)
//
//	func main() { serve.Main(notes.Modkit()) }
//
// # Testing
//
// Package sdk/modtest runs a tool in-process through the same code a mod
// process runs: it validates the input with the generated decoder, pins the
// date, session and workspace, records the activity, can cancel mid-run,
// and returns the outcome (completed, failed, cancelled or denied) with the
// text the model reads:
//
//	func TestCount(t *testing.T) {
//		dir := t.TempDir()
//		// ... create a few notes in dir ...
//		out := modtest.Run(t, notes.Modkit(), "notes_count", `{"folder": "work"}`,
//			&modtest.Options{Workspace: dir})
//		if out.Status != modtest.StatusCompleted || out.Text != "3 notes." {
//			t.Errorf("got %s %q, want completed %q", out.Status, out.Text, "3 notes.")
//		}
//	}
//
// A handler's questions are answered from Options.Answers, by question key
// (an sdk.Answer, an sdk.Sampled or a []sdk.Root), and Outcome.Questions
// and Outcome.Runs show what was asked and how often the handler ran.
// A tool that needs approval asks Options.Approver: modtest.Approve,
// modtest.Deny, modtest.NeverAnswer (until the test cancels), or a function
// of your own that checks the request's Reason (modtest.Approver is
// host.Approver: one written for a host runs here); the outcome is then completed,
// denied or cancelled, with the reason in Outcome.ApprovalReason. A tool the
// client runs is answered by Options.Client, a script of the client's
// answers, and Outcome.WantActions checks a call's client actions.
//
// modtest also runs commands, slash commands and hooks, and renders views for
// each phase. The mods in the repository's examples directory are complete,
// tested mods to start from. In the mod's own package, modtest.Run fails the
// test when the generated files are out of date, in the host's words.
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
// go:generate line and a modtest test. go tool modhost --mods . list lists
// its tools; go tool modhost --mods . mcp serves them over MCP. The host
// builds the mod on first use and rebuilds it when any of its inputs
// changes; it refuses a mod whose generated files are out of date.
package sdk

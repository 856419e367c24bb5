// Package modtest runs a mod's tools, commands, slash commands, hooks and
// views the way a host would, confined as a host confines the mod, so that
// mod authors can test them with go test and no host.
//
// Every function here calls the same server code a mod process runs, so a
// rule of a call holds in a test exactly as under a host: input decoding
// and the "invalid input" wording, panic recovery (a panic is a failure
// naming what panicked), the cap on a result or a command's message
// ([Options.MaxResultBytes]) and the trimming of a slash command's text.
//
// # Running a tool
//
// [Run] validates the input with the mod's generated decoder (or with
// encoding/json when there is none), runs the handler with a pinned date,
// session and workspace, records every activity update in order, applies the
// activity rules, and returns an [Outcome]: completed, failed, cancelled or
// denied, with the text the model would read.
//
//	func TestWordCount(t *testing.T) {
//		out := modtest.Run(t, research.Modkit(), "research_word_count",
//			`{"text": "one two three"}`, nil)
//		want := "The passage has 3 words, 1 line and 13 characters."
//		if out.Status != modtest.StatusCompleted || out.Text != want {
//			t.Errorf("got %s %q, want completed %q", out.Status, out.Text, want)
//		}
//	}
//
// Input is JSON text (a string, []byte or json.RawMessage) or any other value,
// which is encoded with encoding/json first.
//
// The steps of the call are a host's, in a host's order and from the same
// code (input check, hooks, approval, a client tool, the handler and its
// questions, the result cap and the check of its client actions against
// the manifest), so an outcome reads as a host's would; only the mod runs
// with no timeouts.
//
// # Confined like the host
//
// A mod's code runs as a host runs it: in a process of its own, confined
// to the mod's declared permissions, so a handler that connects, writes or
// runs what the mod does not declare fails with the host's words:
//
//	Tool failed: Permission denied: the refusemod mod may not connect to 127.0.0.1:4242 (it may connect only to 127.0.0.1:9). Retrying will not help; …
//
// Each call of [Run], [Call], [RunCommand], [RunSlashCommand], [RunHooks],
// [Activate], [ReadResource], [GetPrompt] and [Complete] starts the test
// binary again as the mod's process (with the flag -modtest.serve, which
// it reads once every package has initialized, so the mod's package-level
// sdk.DefineMod value exists there too), confined with the host's policy
// for the mod's manifest and [Options.Workspace], the same Landlock ABI,
// seccomp filter and empty capability set, from its first instruction.
// modtest speaks to it as a host does, go-plugin's handshake and the gRPC
// protocol, and stops it when the call ends. The generated validators are
// functions no process can pass, so the test's process judges the input
// with them and the mod's process decodes what they accepted, with the
// schema's defaults, as a host does for a mod without generated code.
//
// The cost is a process per call: go test -bench BenchmarkRun ./sdk/modtest
// measures 16–32ms a call confined against 0.05–0.15ms in the test's
// process, and about 150ms against 1–2ms with -race, whose runtime is
// slower to start (two cores, shared and loaded). The bundled examples'
// tests (go test -count=1 ./examples/research ./examples/dependencies,
// hundreds of calls) took 2.9s and 2.1s confined against 1.2s and 1.1s on
// a quiet machine; 22s and 8s against 2.6s and 2.3s on a loaded one.
//
// [Options.Unconfined] runs the mod in the test's process, as modtest did
// before: for a test whose handler shares state with it (a variable, a
// channel), or that asserts where a cancelled handler stops, since a
// cancellation reaches a confined handler over the wire, as under a host,
// a little after [Options.CancelWhen]. A mod also runs there, and modtest
// says why once through [Options.Logger], when it is not a package-level
// sdk.DefineMod value (one the test built or changed) or has no manifest,
// which the process could not serve, and on a machine with nothing to
// confine with (macOS, Windows, Linux without Landlock or seccomp). Where
// the machine confines in part, mods run with what it offers and modtest
// says once what it does not enforce, as a host does; tests do not fail
// for it.
//
// The re-executed binary runs the test packages' initialization and a
// TestMain, up to m.Run, confined and with the mod's environment, as the
// mod's own: one that needs more than the mod may do (HOME, a build, a
// server) fails the call, naming the process's stderr; its tests set
// Options.Unconfined.
//
// # Approval
//
// A tool whose approval rule asks is put to [Options.Approver], which is
// host.Approver itself ([Approver], [ApprovalRequest]): [Approve], [Deny],
// [NeverAnswer], or any approver written for a host. It sees the tool's
// name, title and annotations, the reason, the input and the session, and
// [ApprovalRequest.Question] is what a host's approver asks:
//
//	var asked []string
//	opts := &modtest.Options{Approver: func(_ context.Context, req *modtest.ApprovalRequest) (bool, error) {
//		asked = append(asked, req.Reason)
//		return true, nil
//	}}
//
// # Cancelling mid-run
//
// [Options.CancelWhen] sees each activity update as the handler sends it and
// cancels the call when it returns true; [Options.Context] cancels it from
// outside. A call whose context was cancelled while it ran is
// [StatusCancelled], whatever the handler returned, and
// [Outcome.SinceCancel] says how long the handler took to stop.
//
//	out := modtest.Run(t, g, "research_search_workspace", `{"query": "x"}`,
//		&modtest.Options{
//			Workspace: dir,
//			CancelWhen: func(u sdk.ActivityUpdate) bool {
//				return u.Kind == sdk.ActivityStatus
//			},
//		})
//
// # Tools the client runs
//
// A tool that runs in the client application (sdk.PlainTool.Client) is
// answered by the [Client] in [Options.Client]: a script of answers, run
// through a host's rules after the input's validation, the hooks (with
// [Options.Hooks]) and, when the tool needs it, [Options.Approver]'s
// approval: a denied call never reaches the client. An answer carries no
// client actions. The first answer is the call's output;
// later ones land in [Outcome.DroppedAnswers]; a client with no answers
// never answers, and the call fails as on a host's timeout, at once.
// Without a Client, a tool that runs either way runs in the mod.
//
//	out := modtest.Run(t, g, "dependencies_modules", `{}`, &modtest.Options{
//		Client: &modtest.Client{Answers: []sdk.ClientAnswer{
//			{Text: "1 module: example.com/app in the workspace root."},
//		}},
//	})
//
// # Commands, hooks and views
//
// [RunCommand], [RunSlashCommand], [RunHooks] and [Activate] run a mod's
// commands, hooks and activation with the same pinned environment (as in a
// host, activation sees no session). [Render] renders a rendered tool's view
// for one phase; [Outcome.ViewState] gives the state of a finished call.
//
// # Resources, prompts and completions
//
// [ReadResource] reads a resource, or the resource a template matches, as
// a mod process reads it for a host (a URI the mod does not have, or its
// handler's sdk.ErrResourceNotFound, wraps sdk.ErrResourceNotFound);
// [GetPrompt] gets a slash command's prompt messages for its arguments;
// [Complete] asks a slash command or template for values:
//
//	msgs, err := modtest.GetPrompt(t, research.Modkit(), "summarize", map[string]string{"path": "a.md"}, opts)
//
// # Client actions
//
// A completed call's client actions are in [Outcome.Actions], each checked
// against its kind's generated params check as a mod process checks it, so
// an undeclared kind or invalid params fails the call here too.
// [Outcome.WantActions] asserts on them, built with the kinds' New:
//
//	out := modtest.Run(t, research.Modkit(), "research_open_file", `{"path":"a.md","line":2}`, opts)
//	out.WantActions(t, research.OpenFile.New(research.OpenFileParams{Path: "a.md", Line: 2}))
package modtest

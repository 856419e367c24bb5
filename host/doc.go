// Package host runs mods: it loads their manifests, lists their tools, and
// runs each mod in its own go-plugin gRPC subprocess, started on first use.
//
// # Loading
//
// [Load] reads mod.manifest.json in each mod directory, checks that the
// mod's generated files match its sources (the manifest's sourceHash, see
// internal/freshness) and that tool names are unique across mods. Listing
// tools with [Host.Tools] reads manifests and the mods' Go files only. A
// tool's input schema is compiled once, on its first call.
//
// A bad mod directory never fails Load. [Host.Unavailable] says, for each
// mod that cannot run, why and how to fix it ([ModError]); the reason is
// written once to [Options.Progress] and logged; [Host.CheckBuilds] adds the
// mods whose build from their current inputs is recorded as failed, without
// building anything. A model calling a tool of
// such a mod reads one line ("mod tasks is unavailable: it does not
// build"), never compiler output; the other mods keep working.
//
// # Building and starting
//
// On a mod's first use the host builds its binary with go build (adding the
// serving main package through -overlay) into [Options.CacheDir]. On Linux
// it adds the netgo and osusergo build tags to those of GOFLAGS: the
// standard library's DNS resolver and user lookup are pure Go, so a mod
// with no cgo of its own is linked statically and its process maps no C
// library (about 1.3 MiB less resident memory per mod). Every mod is built
// with the grpcnotrace tag and linked with -ldflags=-s -w (unless GOFLAGS
// sets -ldflags): no gRPC tracing pages, no symbol table and no DWARF, so
// a smaller binary to checksum and map at each start. A build
// is reused while all its inputs are unchanged: the go command's settings
// (Go version, GOOS, GOARCH, CGO_ENABLED, GOEXPERIMENT, GOFLAGS with its
// build tags, …), the main module's go.mod and go.sum and the workspace's
// go.work, and the files of every package of the build outside the
// standard library and the module cache (the mod, its sibling packages,
// replace targets, workspace modules), embedded files included. Packages in
// the module cache are named by version in go.mod and checked by go.sum.
// Hosts sharing a cache build each mod once. A build started for a caller
// who gives up goes on, detached, and serves the next caller; only
// [Host.Close] stops it. A failed build is reported once, in full, on
// [Options.Progress], and not tried again until an input changes; so is a
// module the go command cannot load (its go.mod needs updates, say), until
// its go.mod, go.sum or a replacement's go.mod changes. The advice names
// the mod's directory, or, for a copy of a published module in the cache,
// its author's fix. A mod's module must require what the serving code
// imports: listing github.com/modkit/modkit/cmd/modhost as a tool keeps
// those requirements through go mod tidy. A build
// that failed for a cause outside the mod's sources (no space left on
// device, an I/O error, the compiler or the go command killed by a signal)
// is not remembered: its error says what happened, and the next call builds
// again.
//
// The cache is private: its directories are created 0700, and a directory,
// binary or record that anyone but the user can write is refused, since
// writing the cache is running code. Each build records the binary's
// SHA-256, which go-plugin verifies before every start: it catches a binary
// corrupted or replaced without its record, not someone able to write the
// cache. While the go command reports the settings that make the key, the
// host already hashes the inputs and the binary of the mod's newest record
// naming its directory; the start uses that work when the key names the
// same record, unchanged, and reads them again otherwise. A binary that fails an identity check (its checksum, serving
// another mod, or embedding another source hash while the mod's sources
// match its generated files) is evicted and rebuilt, and so is a cached
// binary that does not start as a mod and is no Go build of the mod's main
// package (planted with a record forged to match it); a build of the mod
// that does not start is the mod's failure. A cache the host
// refuses or cannot write makes its mods unavailable: the model reads "the
// host's build cache is unusable", while the [ModError] and
// [Options.Progress], once, name the path, the problem and the fix
// ("chmod go-w DIR").
//
// The cache keeps what was used lately, as Go's build cache does: a start
// marks its mod's binary and record used (at most once an hour, and hourly
// while the process runs), and once a day, after a build, the host removes
// the binaries, records, generated sources and module copies no host used
// for 5 days. What a host is building or starting stays: each is trimmed
// under the lock its build takes. A binary trimmed is built again when
// next needed.
//
// A prebuilt cache, made by [Host.Prebuild] (modhost build), serves a host
// with no go command, read-only: such a host never builds, marks or trims
// it. At [Load] it checks, for every mod, the cache's platform and modkit
// protocol, the mod's source hash and package files against the cache's
// index, and its record and binary, and before each start the binary's
// checksum; a mod without a current build is unavailable ("the prebuilt
// cache holds no current build of it"), and its error says to run
// modhost build again. Root may own a cache as well as the user.
//
// Host and mod talk gRPC over a unix socket in a directory only the host's
// user may enter (0700), made for that one process. On Linux and macOS each
// end asks the kernel who is at the other (SO_PEERCRED; LOCAL_PEERCRED and
// LOCAL_PEERPID) and hangs up unless it is the expected process of the same
// user: the mod answers only its parent, the host talks only to the child
// it started. A process of another user cannot open the socket; another
// process of the same user is refused before any request is read.
// Elsewhere (Windows, where go-plugin uses loopback TCP) they use
// go-plugin's mutual TLS.
//
// The mod process dies with the host, even when the host is killed: on
// Linux by a parent-death signal, elsewhere because the mod watches its
// parent and exits when it is gone.
//
// # Confinement
//
// On Linux every mod process starts confined, by Landlock at the ABI the
// kernel offers, a seccomp filter and an empty capability set, to its
// manifest's permissions (see manifest.Permissions):
// it reads the session workspace it was started for and what the Go
// runtime needs, writes its private temporary directory (its TMPDIR,
// removed with the process), receives only the environment variables it
// declares besides the runtime's, and connects, runs programs, reads
// further paths or writes the workspace only as declared. From Landlock
// ABI 6 (Linux 6.12), signals to other processes and abstract unix
// sockets made outside it are refused too. At every ABI, and without
// Landlock, the filter refuses a mod that declares no network every
// internet socket and connect(2), and every mod raw, packet and netlink
// sockets (but route ones), Multipath TCP and the system calls no mod
// needs. The host restricts one thread of its own and starts the mod
// from it, so the restriction holds from the mod's first instruction,
// before any init function of the author's packages; then the mod must
// report that it is confined, or it does not start. Since a confined process reads one workspace, a mod gets a
// process per session workspace it serves.
//
// Where the machine does not enforce every limit (an older kernel's
// Landlock, none, a kernel refusing the filter, macOS, Windows), mods from the user's own sources still
// run, with what it enforces, and [Load] logs once which limits it does
// not enforce; [Host.Unconfined] names them. A mod installed from a
// published module ([Options.Installed]) starts there only with
// [Options.AllowUnconfined]; with [Options.RequireConfinement] no mod
// does. A refused start fails with [ErrUnconfined] and the reason.
// [Host.Tools] lists every tool of a fully confined mod that may neither
// write the workspace, connect nor run programs as read-only.
// MODKIT_LANDLOCK_MAX_ABI=N confines as a kernel offering Landlock ABI N
// would (0: none), for tests.
//
// # Calls
//
// [Host.Call] looks the tool up, applies the agent's allowlist, validates the
// input against the manifest schema, runs BeforeAction hooks, streams
// activity with the rules of [sdk.ActivityState] applied, and returns exactly
// one outcome: completed, failed, cancelled, or denied (see Approval). Every
// call gets an id from the host ([CallResult.CallID]), which keys it in the
// mod; the caller's [CallRequest.Label] only names it in logs.
//
// # Approval
//
// A tool whose manifest has an approval rule (sdk.Approval) may need a
// person's approval. After the input was judged valid and the hooks let the
// call through, the host asks the mod whether this input needs approval and
// why (the rule is the mod's code, bounded by [Options.HookTimeout]), then
// asks [CallRequest.Approver], which the embedding application supplies
// (and which asks in the words of [ApprovalRequest.Question], as modhost's
// terminal, its MCP server and its dev page do): yes runs the handler; no ends the call [StatusDenied], the model reading
// that the person declined ([CallResult.ApprovalReason] keeps what they were
// asked). Without an approver such a call fails: the tool needs approval and
// none could be asked. The wait belongs to neither the handler's
// [Options.CallTimeout] nor its grace period; a call cancelled while waiting
// ends cancelled and its handler never runs.
//
// Without an Approver, a [CallRequest.Asker] that can ask forms is asked
// instead: the approval question is a form with no fields under
// [ApprovalKey] ("accept" runs the call, "decline" denies it, "cancel"
// dismisses it, which the model reads differently).
//
// # Questions mid-call
//
// A tool's handler may ask questions while it runs (sdk.ToolContext.Ask,
// AskURL, Sample, Roots). The mod ends that run of the handler with the
// questions; the host puts each to [CallRequest.Asker], judges the answer
// (an answer that breaks a form's schema is refused in the host's words,
// [Question.Refusal], and asked again), then runs the handler again from
// the start with the answers so far, until it completes. Asker.CanAsk says
// which kinds can be asked at all: the handler reads the others as "could
// not be asked". The wait for an answer counts toward no timeout.
//
// A stateless front end (MCP 2026-07-28) answers later: its Asker returns
// [ErrAskLater], the call ends [StatusAsking] with [CallResult.Questions]
// and [CallResult.Answered], and the next request carries those answers
// and the new ones in [CallRequest.Answers], in order. The host uses each
// answer while the call asks the same question and the answer fits it.
//
// # Client actions
//
// A completed call may carry client actions, [CallResult.Actions], for the
// embedding application to take on the person's screen: each is
// {Kind, Params}, of a kind the tool lists in its manifest, whose params
// schema is in [Tool.ClientActionKinds]. The mod checks each action with
// its generated code before it leaves the mod, and the host checks it again
// against the manifest, as it would a mod's input without generated code:
// a kind the tool does not declare, or params its schema refuses, fails the
// call with a message naming the action by index and kind. A failed,
// denied or cancelled call carries none.
//
// # Tools the client runs
//
// A tool whose manifest says it runs in the client ("runs": "client" or
// "either") is run by the embedding application when it gives a
// [ClientHandler] for it: per call in [CallRequest.Client] (the session's
// or the agent's handlers), or for every call with [Host.HandleClientTool].
// The input is judged, the hooks run and, when the tool needs it, the
// person approves first, as for any call (a denied call never reaches the
// handler); the handler then gets the validated input on a goroutine of
// its own and answers through [ClientCall.Reply], an answer with no client
// actions: the client acts on its screen itself. The first answer is the call's one
// output; a second one, or one after the call ended, is dropped and
// logged. A handler that never answers fails the call after
// [Options.ClientTimeout]; cancelling the call ends it cancelled at once
// and cancels [ClientCall.Context]; closing the host fails it. An
// "either" tool with no handler runs in its mod; a "client" tool with none
// fails: "tool T runs in the client application, and no client handler
// was given for it".
//
// # Resources, prompts and completions
//
// [Host.Resources], [Host.ResourceTemplates] and [Host.Prompts] list what
// the manifests declare, starting no mod; resource URIs and templates are
// unique across loaded mods like tool names. [Host.ReadResource] reads a
// resource, or the resource a template matches (templates are tried in
// sorted order), in its mod, and returns [ErrResourceNotFound] when none
// has it. A slash command is a prompt: [Host.GetPrompt] checks the
// arguments against its declared ones ([ErrBadArguments]) and runs it;
// [Host.GetPromptAsking] also puts its handler's questions to a
// [PromptRequest]'s Asker and runs it again with the answers, as a call's.
// [Host.Complete] asks a prompt's or template's Complete handler for
// values. [Host.SubscribeResource] starts the mod of a resource, and
// [Host.OnResourceUpdated] receives the updates running mods send. Reads,
// prompts and completions are bounded by CommandTimeout, and their
// results by MaxResultBytes.
//
// # Crashes
//
// The host learns that a mod process exited from the process itself (its
// own wait on it, through go-plugin's RunnerFunc), not from logs or polling.
// Each call in flight then fails once, with "mod X crashed: " and the panic
// line the process printed, or else its exit status or signal ("exit status
// 3", "signal: killed"); the next call starts a fresh process. A process
// that exits before the go-plugin handshake is reported with its exit status
// and the last lines of its stderr; one that does not handshake within
// [Options.HandshakeTimeout] is killed.
//
// # Timeouts and cancellation
//
// Every operation is bounded: tool handlers by [Options.CallTimeout] (or
// [CallRequest.Timeout]), counted from when the mod is ready, hooks
// by [Options.HookTimeout], commands by [Options.CommandTimeout], views by
// [Options.ViewTimeout], a process's start and its manifest by
// [Options.HandshakeTimeout], the mod's Activate by [Options.ActivateTimeout].
// Cancelling the caller's context, or a timeout, cancels the handler's
// context in the mod and returns at once. A handler that still runs
// [Options.GracePeriod] later ends its mod process: the mod exits by itself,
// and the host, as a backstop for mods that do not, asks shortly after and
// kills the process. The next call starts a fresh one.
//
// # Validation
//
// Every input is judged once, before any hook sees it and before its
// handler runs. A mod that reports at start that it checks a tool's input
// with a modgen-generated validator, and whose embedded manifest has
// exactly the loaded schemas, judges it: as part of the call, or first,
// through its CheckInput RPC, when a loaded mod hooks tool calls (in the
// call's own frame on its call lane, when it alone does). For any
// other tool the host judges with santhosh-tekuri/jsonschema on the
// manifest schema, compiled once per tool, fills in the defaults of absent
// keys, and never lets the library see what it cannot hold (numbers are
// bounded and nesting limited; a panic is recovered). Problems read the
// same, word for word, whichever side judged: "invalid input for tool T:"
// then one "/json/path: what is wrong" line each.
// [Host.Check] runs the host's own check alone, for a form that shows
// problems before a call; [Host.Start] builds and starts a mod before its
// first use.
//
// # Limits
//
// Work a caller or a mod can cause is bounded. An input, a command's
// arguments or a view's state over [Options.MaxRequestBytes] (4 MiB by
// default) is refused before any hook or mod sees it, with a message naming
// the limit; a result over [Options.MaxResultBytes] fails the call. The gRPC
// message limits between host and mod, both ways and on both sides, follow
// from the two, so a request the host accepts always arrives. An invalid
// input lists its first 50 problems and counts the rest, and quotes
// offending values in part. A number written with over 1000 characters is
// one problem, "must be a number at most 1000 characters long, got N",
// whichever side judges: the host's schema library never computes with it.
// An integer beyond a 64-bit float is held to the integer's own bound
// alone. A call keeps 1000 log entries and 1 MiB of log, then one
// "log truncated" entry.
//
// # Closing
//
// [Host.Close] stops builds and starts under way and every mod process,
// gracefully, then by force: it returns within a few seconds whatever the
// mods do. Each process's socket directory ("modkit-<mod>-<host pid>-*" in
// the temporary directory) is removed when the process ends; directories
// left by a host that died are removed by the next host to start a mod.
//
// # Serving while mods change
//
// A host's mods are fixed at [Load]. A server that follows its mods'
// sources serves from a [Live]: [Live.Prepare] loads the mods afresh and
// builds and starts the changed ones, so that a broken edit is found
// while the old host serves on; [Live.Swap] then serves every new call
// from the new host, while the calls under way finish on the old one,
// which closes once the last of them ends. Live has Host's listing and
// calling methods, each run on the host of the moment; [Live.Hold] keeps
// one host for work of several steps.
//
// # Words
//
// A call's status ([Status]) is completed, failed, cancelled, denied or
// asking, here and in sdk/modtest. The approver ([Approver], the very
// type sdk/modtest's Approver is) answers for the person; the approval
// rule, the mod's, decides whether it is asked.
// The client is the application a person uses, which embeds the host or
// reaches it over MCP (it is then the MCP client); a client tool is a
// tool the client runs ([ClientHandler]); a client action is what a
// completed call asks the client to do ([CallResult.Actions]).
package host

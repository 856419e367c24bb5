// Command modhost loads mods and runs their tools, commands and slash
// commands from the command line, and shows their manifests.
//
// Usage:
//
//	modhost [--mods DIR[,DIR...]] [--workspace DIR] [--agent NAME] [--allow-unconfined|--require-confinement] COMMAND [ARGS]
//
// Global flags, before the command:
//
//	--mods       mod directories, comma-separated; default $MODHOST_MODS, else
//	             the bundled examples when run inside the modkit repository (or
//	             when the modhost executable is); MCP clients start modhost
//	             elsewhere, so give them absolute paths
//	--workspace  the session's workspace; default the current directory
//	--agent      call tools as this agent: its allowlist applies
//	--allow-unconfined
//	             run mods installed from mods.lock where this machine does not
//	             enforce every limit on a mod (Linux before 6.12, macOS,
//	             Windows), with what it enforces; mods from your own sources
//	             run there without it
//	--require-confinement
//	             start no mod where this machine does not enforce every limit,
//	             naming what is missing: for servers
//
// # Confinement
//
// On Linux every mod process is confined by Landlock, a seccomp filter and
// an empty capability set to its manifest's permissions (modhost inspect shows them): it reads its session's
// workspace and what the Go runtime needs, writes its private temporary
// directory, and connects, runs programs, reads further paths or writes the
// workspace only as it declares. A denied operation fails in the mod with
// permission denied; the model reads which permission the mod lacks, and
// $MODHOST_LOG=warn shows the operator what it tried. What is enforced
// depends on the kernel's Landlock ABI; modhost sandbox prints it, a row per
// limit, with what the filter keeps below each ABI. Where a limit is not
// enforced (Linux before 6.12, macOS and Windows, which have neither),
// mods from your own sources run anyway and modhost
// says once on stderr, and in list, what is not enforced; mods installed
// from mods.lock need --allow-unconfined, and --require-confinement refuses
// every mod instead.
//
// Commands:
//
//	list [--json]                             one line per tool: name, mod, description,
//	                                          marked when it asks for approval or
//	                                          runs in the client
//	inspect [--json|--markdown] [MOD]         manifests as readable field trees; --markdown
//	                                          a reference of the tools, commands, slash
//	                                          commands, hooks and agents
//	call [--json] [--yes] [--answer KEY=VALUE]... [--timeout D] [--session ID] TOOL [INPUT_JSON|-]
//	                                          run one tool; activity on stderr
//	command ID [ARGS_JSON]                    run a command
//	slash ID [TEXT...]                        run a slash command
//	read [--out FILE] URI | URI_TEMPLATE NAME=VALUE...
//	                                          read a resource: its text, or a binary
//	                                          one's MIME type and size
//	prompt [--answer KEY=VALUE]... NAME [ARG=VALUE...]
//	                                          get a prompt's messages
//	mcp [--http ADDR] [--session-timeout D] [--max-sessions N] [--state-key-file FILE] [--state-ttl D]
//	                                          serve the tools over MCP: stdio, or
//	                                          streamable HTTP at http://ADDR/mcp
//	dev [--addr HOST:PORT] [--open]           serve the mod author's web inspector
//	get [--yes] MODULE[/PACKAGE][@VERSION]... install published mods: fetch through the go
//	                                          command, verify, build, pin in ./mods.lock
//	update [--yes] [MODULE...]                move locked mods to their latest versions
//	remove MODULE...                          unpin mods from ./mods.lock
//	verify                                    fetch the locked mods again and compare
//	cache [--json]                            the build cache's directory and size by part
//	cache trim [-n] [--unused D]              remove what no host used for 5 days (D), now
//	build [-o DIR] [--goos OS] [--goarch ARCH]
//	                                          build every mod into a prebuilt cache, which
//	                                          a host with no go command runs from
//	sandbox [--json]                          what this machine enforces of the limits on
//	                                          a mod, a row per limit
//
// Every command runs the mods ./mods.lock pins, besides --mods (and instead
// of the bundled examples): each is checked against its lock entry first,
// fetched when the module cache lacks it, and a mismatch, named with both
// hashes, runs nothing; so does a block whose allow lines disagree with the
// permissions the mod's manifest declares.
//
// get and update print what a version changes against the locked one:
// tools, permissions, approval rules. A version that widens a permission or
// loosens an approval rule needs a yes on the terminal, or --yes; without
// either the lock keeps what it had and the command exits 1.
//
// modhost COMMAND --help, or modhost help COMMAND, says what the command does
// and lists its own flags; modhost --help lists the commands.
//
// call --timeout bounds the tool's run, counted from when its mod is ready:
// a first call waits for the mod's build, which is never thrown away.
//
// call prints the model-facing text on stdout and exits 0 when the call
// completed, 1 when it failed (invalid input included), 2 for a usage error or
// an unknown tool, and 130 when cancelled: the first ending signal (Ctrl-C,
// SIGTERM, SIGHUP, SIGQUIT) cancels the call, and the tool sees it; every
// command stops its mods on one and removes their socket directories, and
// a host removes those that hosts gone before it left. Its activity goes to stderr: on a terminal
// a live status line, redrawn at most ten times a second, between the title
// and the log lines; otherwise the title and the log lines only. A call's
// client actions follow on stderr, one "client action KIND PARAMS" line
// each (clientActions with --json).
//
// A tool that needs a person's approval asks on the terminal, "Run it?",
// and runs on y or yes; --yes approves. With no terminal and no --yes the call is
// denied, and says so on stderr: a denied call prints what the model
// reads and exits 1. A tool that runs only in the client application
// fails, since modhost has no client; one that runs either way runs in
// its mod.
//
// A tool that asks a question mid-call (sdk.ToolContext.Ask) is asked on
// the terminal: a form field by field (an empty line keeps the default,
// !decline declines, !cancel dismisses), a URL to open, or a reply to give
// as the client's model; its roots are the workspace. --answer KEY=VALUE
// answers the question KEY without a terminal: a form's values as a JSON
// object, the value of a form's lone field, accept, decline or cancel, or
// the model's reply. With neither, the handler reads that the question
// could not be asked (sdk.ErrCannotAsk), and may carry on without the
// answer, as under an MCP client that cannot be asked; stderr names the
// --answer that would answer it. An answer the form refuses fails it in
// the host's words; an --answer no question took is named on stderr.
//
// mcp --state-key-file FILE seals the request states of such questions for
// MCP 2026-07-28 clients with the 32 bytes in FILE (raw, hex or base64):
// give every replica behind one URL the same file, so that any of them
// opens a state another sealed (head -c 32 /dev/urandom > FILE). Without
// it each process seals with a fresh key. --state-ttl says how long a state
// stays valid (default 10m).
//
// mcp on stdio serves until stdin ends, then lets the calls in flight run to
// their end (a first call may wait for its mod's build), writes their
// answers and exits: modhost mcp < requests.jsonl answers every request. A
// stdout the client closed, SIGINT, SIGTERM, SIGHUP or SIGQUIT cancels the calls in flight at
// once and stops the mods within a second.
//
// mcp --icon FILE-OR-URL gives the server an icon (serverInfo's icons):
// an https URL, or an image file embedded as a data: URI; repeat it for
// more. None by default: modhost serves many mods, and none of their icons
// stands for the server; each mod's stand for its own tools, prompts and
// resources.
//
// mcp follows its mods while it serves (--watch=false turns it off): an
// edit of a --mods source is generated, built and swapped in, and so is a
// change of ./mods.lock, without a restart; a --mods source edited
// without go generate before mcp started is generated and served at once,
// as dev does. Calls in flight end on the old
// mod process, new ones go to the new; clients are sent
// notifications/tools/list_changed (prompts, resources likewise). A change
// that does not build keeps the old version serving, and stderr says why,
// file:line:col. modhost dev reloads the same way, showing a failed build
// on the page.
//
// A mod that cannot run (its directory does not load, its generated files
// are out of date, it does not build, the cache is refused: writable by
// others, or read-only) never stops the others: modhost says why on stderr,
// once, with the path and the fix; list marks its tools "unavailable: …"
// and exits 1; a call of one of its tools prints the one line a model
// reads, "Tool failed: mod tasks is unavailable: it does not build".
//
// dev serves a web inspector on loopback (127.0.0.1 and a free port unless
// --addr says otherwise) and prints its URL, which carries a secret token for
// this run; --open opens it in a browser. The page lists the mods, with those
// that failed to load and why; calls tools from forms built from their input
// schemas and prefilled with their defaults, showing the validator's problems
// next to the fields once the person types or presses Run; answers a tool only
// a client runs as its client would; shows what an MCP client receives (the
// tools/list entry, each call's tools/call result); gives every tool and call
// a URL; streams each call's activity live, with a Cancel button;
// shows the model's text, the structured result, outputs and the tool's view
// for each phase in a sandboxed frame; keeps the session's calls to reopen or
// run again; runs commands and slash commands; and acts as any agent. It
// watches the mods' sources: an edit regenerates (modgen), rebuilds and
// restarts the mod and updates the page in place (a mod edited without go
// generate before dev started is regenerated at once); a generator or compiler
// error shows in a banner with file:line:col and the compiler's text while the
// last good build keeps serving. It serves until an ending signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT). See internal/devserver.
//
// Mod binaries are cached under the user cache directory, or under
// $MODKIT_CACHE when it is set. The cache forgets what no host used for 5
// days, trimming itself once a day after a build; cache shows its directory
// and the size of each part (binaries, build records, generated sources,
// module copies), and cache trim [-n] [--unused D] trims it now: like go clean
// -cache, but what a host is building or starting, or a process runs,
// stays. $MODHOST_LOG (debug, info, warn, error) sends
// the host's and the mods' logs to stderr; --log-format json writes them as
// JSON lines (at info unless $MODHOST_LOG says otherwise), a mod's lines
// naming the mod and the call, and the trace when the call is traced.
//
// # Observability
//
// Traces follow the standard OpenTelemetry environment:
// OTEL_TRACES_EXPORTER=otlp (OTEL_EXPORTER_OTLP_ENDPOINT and the rest),
// console (JSON on stderr; stdout stays the command's) or none, the default,
// which costs a call nothing. Each MCP request is a span named by OpenTelemetry's MCP
// conventions ("tools/call NAME"), its parent the traceparent in the
// request's _meta or HTTP headers; under it the host's call, its steps
// (input validation, hooks, approval, questions, the mod's build and start)
// and the mod's own spans, which the mod sends back to modhost to export.
// OTEL_LOGS_EXPORTER=otlp or console sends each line of a call's activity
// log as an OpenTelemetry log record (event modkit.activity.log), in the
// call's trace.
// OTEL_TRACES_SAMPLER (always_on, always_off, traceidratio and their
// parentbased_ forms, with OTEL_TRACES_SAMPLER_ARG the ratio) picks the
// traces kept: parentbased_always_on by default.
//
// Metrics, in Prometheus text format, are at /metrics of the mcp --http
// server, or at --metrics-addr for stdio and dev:
// mcp_server_operation_duration_seconds (by mcp_method_name,
// gen_ai_tool_name, error_type), modkit_calls_total (by tool and outcome),
// modkit_calls_in_flight, modkit_mod_starts_total, modkit_mod_crashes_total,
// modkit_mod_restarts_total, modkit_mod_build_duration_seconds,
// modkit_input_refusals_total (by reason), modkit_approvals_total and
// modkit_questions_total (by outcome) and
// modkit_taskstore_operation_duration_seconds (by store, operation and
// outcome). With OTEL_METRICS_EXPORTER=otlp the same metrics are also pushed
// over OTLP (OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf or grpc, every
// OTEL_METRIC_EXPORT_INTERVAL), with or without a /metrics server. A
// request, over HTTP or stdio, names its JSON-RPC id in its span
// (jsonrpc.request.id).
// modhost dev always traces, and shows each call's spans as a timeline.
package main

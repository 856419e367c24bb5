// Package mcpbridge serves the tools of loaded mods over the Model Context
// Protocol, with the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// # Tools
//
// [NewServer] registers every tool the configured agent may call with the
// manifest's input schema and, for rendered tools, its result schema as the
// output schema. Nothing is derived again: the schemas are the manifest's
// bytes. Mods are not started until a tool is called.
//
// A tools/call goes through the host ([Backend.Call]), so input validation,
// hooks, agent allowlists, crash handling and the activity rules apply as they
// do for any host caller. Activity maps to MCP as follows:
//
//   - title and status updates become progress notifications when the client
//     sent a progress token, at most ten a second per call, the latest
//     always sent ([ProgressInterval]); the message is the update's text and
//     progress counts the notifications so far;
//   - log entries become logging notifications at level info, sent only when
//     the client asked for that level or a lower one.
//
// # Results
//
// A completed call returns the model-facing text. A rendered tool also
// returns its typed result as structuredContent (wrapped as {"result": ...}
// when the result is not a JSON object, as MCP requires an object). A plain
// tool's outputs become image content (image/*), audio content (audio/*) or an
// embedded resource (any other type). A failed, denied or cancelled call is
// an isError result whose text says why.
//
// A tool that declares client actions has an output schema of
// {"clientActions": [...], "result": ...} (result for rendered tools): a
// completed call's structuredContent follows it, and its _meta carries the
// same list under [MetaClientActions]. A call that did not complete carries
// none.
//
// # Approval and tools the client runs
//
// A tool's questions mid-call (forms, URLs, sampling, roots; a call's
// approval is a form keyed [ApprovalInput]) go to the client it declared
// it can answer them: to a client of 2025-11-25 or older as server→client
// requests (elicitation/create, sampling/createMessage, roots/list) within
// the one tools/call; to a client of 2026-07-28 as an input_required result
// with inputRequests keyed by the handler's question keys and a
// requestState, and the client calls again with its inputResponses and the
// state. A response may also answer ahead, by key. The state is sealed
// with AES-256-GCM under [Options.StateKey] (shared by replicas; a fresh
// key per server by default), carries the answers so far, is bound to the
// tool and its arguments, and expires after [Options.StateTTL]. A state
// altered or sealed by another key, expired, of another tool or arguments,
// or over [MaxStateBytes] is refused with -32602, naming which. A client
// that declared no form elicitation is not offered the tools that need
// approval; a call of one anyway is refused, saying approval could not be
// asked. An elicitation the client fails to answer is a tool result ("…
// could not be asked: <the client's error>"), never a protocol error. An MCP client is not the
// client application a tool that runs only in the client is written for:
// such tools are not listed, and a tool that runs either way runs in its
// mod.
//
// # Resources, prompts and completions
//
// A Backend that is also a [FeatureBackend], as *host.Host is, serves the
// mods' resources and resource templates (read in the mod; a missing one
// is MCP's resource-not-found error, -32002 before revision 2026-07-28
// and -32602 from it on, [CodeResourceNotFoundLegacy]), their slash
// commands as prompts with the commands' arguments, completions of
// prompt arguments and template variables, and resource subscriptions,
// forwarding the updates mods send.
//
// # MCP Apps
//
// A rendered tool with a custom view is an MCP App: its _meta names a
// ui://<mod>/<tool> resource of type text/html;profile=mcp-app. The page
// speaks the MCP Apps postMessage protocol with its host and, for every phase
// of the call, asks the app-only tool [RenderViewTool] for the mod's own
// rendering, which it shows in itself, made inert; it follows the host's
// theme, sizes its frame to its content, and shows the tool's text when the
// host cannot call tools. [RenderViewTool] is listed only to clients that
// declare [UIExtension].
//
// # Metadata
//
// Tools carry the manifest's title and annotations; the server's
// instructions name each mod serving tools with its description.
//
// # Transports
//
// [Server.ServeStdio] serves one session on a reader and a writer: it
// answers bad input with JSON-RPC errors and serves on; when the input
// ends, lets the calls in flight finish and answers them (and answers the
// server's own unanswered requests with an error, as no answer can come);
// cancels the calls in flight when the output breaks; and sends no
// response to a request the client cancelled. It answers a plain tools/call itself,
// with the tool's handler and the SDK's session, as the SDK would, and
// leaves every other message to the SDK. [Server.NewHTTPHandler] serves a
// server over streamable HTTP on one URL for both protocol revisions:
// sessions for 2025-11-25 and earlier, stateless requests for 2026-07-28,
// chosen per request. It adds DNS-rebinding and cross-origin protection,
// sessions that expire only when idle with no event stream open, a cap on
// sessions, JSON-RPC error bodies, and no response to a cancelled call.
// A session's event streams are resumable: each POST's stream starts with
// a priming event that carries a retry field, and a client whose stream
// ended before its answer gets the rest with GET and Last-Event-ID.
// [HTTPHandler.Drain] prepares a replica to stop; [HTTPHandler.Ready],
// [HTTPHandler.StoreReachable] and [HTTPHandler.StoreUnreachableFor] back
// modhost's /readyz.
//
// # Audit and rate limits
//
// With [Options].Audit, every request that reaches a tool, prompt,
// resource or task (over stdio and HTTP), and every one the HTTP handler
// refuses (401, 403, 429), is a record of internal/audit: the verified
// principal (or the local user over stdio), the method and what it names,
// the arguments' SHA-256, the outcome, the approval decision, the
// duration and the trace. Audited calls go through the SDK: the direct
// paths are off. With [HTTPOptions].RateLimit, each caller (the token's
// subject, else the client's IP address) is held to its rate: 429 with
// Retry-After and a JSON-RPC error past it.
//
// # Tasks
//
// A tool whose manifest declares task support (optional or required)
// serves the MCP tasks extension, [TasksExtension], on streamable HTTP and
// over stdio (without audit) to clients of 2026-07-28 that declare it in
// a request's capabilities, and the tasks of revision 2025-11-25's core
// protocol to sessions of that revision (below). tools/list of 2025-11-25
// says each tool's execution.taskSupport (forbidden for a tool without
// task support, and for every tool in a session of an earlier revision);
// that of 2026-07-28 has no such member, as the extension defines none. The call runs; when
// its handler first reports a title or status, or after [TaskAfter], it
// becomes a task: the client gets a CreateTaskResult at
// once, and polls tasks/get for the status (its message follows the
// call's title and status), the result, a failure, or questions
// (input_required with inputRequests), which it answers with tasks/update
// (one by one if it likes: the call runs again, as a retried call does,
// once every question has an answer). tasks/cancel cancels the handler in
// its mod, on whichever replica runs it. A call that ends before it
// becomes a task answers as a plain call would, questions included. A
// tool's error completes the task with isError; a crash or panic fails it.
// A client without the extension calls an optional tool as a plain call
// and is refused a required one (-32021).
//
// A session of 2025-11-25 (HTTP, or stdio without audit) is declared the
// capability tasks (list, cancel, requests.tools.call): a tools/call with
// a task member is a task at once, answered with its CreateTaskResult and
// kept for the ttl asked (at most the server's); tasks/get answers the
// task, tasks/result waits until it ends and answers the call's result
// (with the related-task _meta) or error, tasks/list pages through the
// caller's tasks, tasks/cancel cancels one. A task waiting for answers is
// asked, in tasks/result, through the session's own requests
// (elicitation, sampling, roots) carrying the related-task _meta; the
// call then runs again with the answers. Over stdio the client also gets
// notifications/tasks/status at each change of status; over HTTP it
// polls. A required tool called without a task, and a tool without task
// support called with one, get -32601. Sessions of earlier revisions call
// every tool as a plain call.
//
// A tasks/get of a working task waits up to 100 ms for the task to change,
// so a task that ends meanwhile answers with its outcome. A client that
// opens subscriptions/listen naming tasks in notifications.taskIds gets
// notifications/tasks (each the task as tasks/get answers it) at every
// change, from whichever replica runs it: over HTTP as the events of the
// listen's stream, over stdio as lines among the others. The listen ends
// with its result once they all ended (or, over stdio, once the input
// ended); one the client cancels ends without a result.
//
// A task's status, as tasks/get reports it, moves so:
//
//	                (title or status, or TaskAfter)
//	tools/call ───────────────────────────────▶ working ──(outcome)──▶ completed or failed
//	                                             │   ▲
//	                              (the call asks)│   │(tasks/update answers the last
//	                                             ▼   │ question: the call runs again)
//	                                         input_required
//	working or input_required ──(tasks/cancel)──▶ cancelled
//	working, its lease lapsed ──(read)──▶ failed; or working again here, for
//	                                     a tool annotated idempotent or read-only
//
// On the replica, each run of a call (the first, or one resumed or run
// again) runs in run.exec, on a goroutine the runner keeps for runs
// (taskRunner.goRun), and counts in the runner's wait group for Drain
// until its outcome is stored or dropped: exec's, and for a run a request
// decides, the decision's (run.decide).
//
//	call runs ─▶ it ends before it is a task's ─▶ the request decides (run.decide):
//	   │                                            a plain call's answer: nothing kept
//	   │                                            the task created ended with it (createEnded)
//	   │                                            the task created working (becameTask): stored then (finish)
//	   │                                            the request left (leave): dropped
//	   └─▶ it becomes a task's first (becameTask) ─▶ it ends ─▶ exec stores it (finish)
//
// Tasks live in [Options].TaskStore (internal/taskstore: memory, or Redis
// shared by replicas) for [Options].TaskTTL. A replica renews a lease on
// the tasks it runs; a task whose lease lapsed fails when next read, or,
// when its tool is annotated idempotent or read-only, runs again on the
// replica that read it. Expired tasks are swept every minute (or every
// TTL, when shorter) while the server has tasks, until it closes.
//
// # Whose tasks
//
// Behind [HTTPOptions].Auth a task belongs to its creator: the token's
// issuer and subject, or its client id when it has no subject. The
// creator travels with the task in the store, so on every replica another
// principal's tasks/get, tasks/update, tasks/cancel and
// subscriptions/listen read it exactly as an unknown task. Without
// authorization every caller is the same principal, as before.
//
// Each principal (every caller together without authorization) has caps
// on the tasks it created on a replica. Past [Options].TaskMaxLive live
// tasks (working or waiting for answers), a call that would make one more
// is refused with a JSON-RPC error naming the cap: a live task holds a
// handler at work, which only its end or a cancellation frees, and
// evicting one would lose work the client still waits for. Past
// [Options].TaskMaxBytes (inputs, results, errors and questions kept),
// the principal's oldest ended tasks are evicted to make room: an ended
// task is the client's to fetch, which the TTL would drop anyway, and
// refusing new work for want of a fetch would stall a client that never
// fetches; a task that does not fit beside the live ones alone is
// refused. A principal spread over n replicas may hold n times the caps.
package mcpbridge

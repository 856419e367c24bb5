// Package protocol is the wire contract between a modkit host and a mod
// process: the go-plugin handshake, the versioned plugin sets, and the two
// ends of a [github.com/modkit/modkit/internal/modapi.Mod] over gRPC,
// [GRPCClient] in the host and [GRPCServer] in the mod, which convert
// between Go types and the generated gRPC types in package
// [github.com/modkit/modkit/internal/protocol/pb]. The host and sdk/serve
// use Go types only. One part of the wire is read and written outside this
// package, so that it is never converted: a mod's trace spans.
// internal/modtrace records them as [pb.Span] (sdk/otelbridge fills them
// from an author's OpenTelemetry spans) and encodes the batch the call's
// trailer carries; internal/telemetry replays that batch in the host by
// pb's field numbers (pb.FieldSpan… and the like). Other pb types appear
// outside this package only in tests of the wire itself.
//
// # Versions
//
// The host offers every protocol version it supports and go-plugin picks the
// newest the mod also serves. Version 1 is the [pb.ModServer] service defined
// in modkit.proto, over go-plugin's mutual TLS. Version 2 is the same
// service over a unix socket whose two ends check each other's process
// (package peercred) instead, and TLS only where the kernel cannot tell a
// socket's peer (Windows); see [AutoMTLS]. A new version adds a new plugin set; RPCs take one request
// message and return one response, so fields are added compatibly.
//
// # Calls
//
// CallTool streams a call's activity updates as they happen and ends with
// exactly one outcome; updates the handler sends while an earlier one is
// on its way travel together in one message (protocol 2). CallToolOnce runs the same call but returns the
// updates with the outcome in one response; the host uses it when nobody
// watches the activity live, which saves the stream's cost.
//
// # The call lane
//
// Where the platform has socketpair(2) ([LaneSupported]: Linux, macOS and
// the other unixes), tool calls skip gRPC: the host makes a socketpair for
// each mod process ([NewLanePair]) and hands the mod one end as an
// inherited descriptor named by [EnvCallLaneFD]; the mod ([OpenLane],
// [LaneServer]) says in its description that it serves it, and the host's
// [LaneClient] then sends CallTool over it, keeping gRPC for the rest. A
// mod that does not serve the lane (an older one) gets its calls over
// gRPC, as on Windows.
//
// A call's steps before its handler travel on the lane too, when the mod
// says it serves them there (lane_steps in its description): hooks
// (BeforeAction), input checks (CheckInput) and approval rules
// (NeedsApproval) each go in a step frame (a pb.LaneStep, with the trace
// context), answered by a step result frame (pb.LaneStepResult, with the
// spans) or a failure frame, and cancelled like a call. When the only
// hooks on a tool call are in the tool's own mod, and nothing happens
// between them and the handler (no approval, no client), the host sends the
// input check and the hooks in the call frame itself ([modapi.Ahead]): the
// mod runs them before the handler, cuts the hooks at the timeout the
// frame carries, and a step that stops the call says so in the outcome
// frame (pb.LaneStopped). One round trip then carries what took three. A
// traced call takes its steps apart, so that each has its span.
//
// The lane carries frames: a 4-byte big-endian payload length, an 8-byte
// call id the host numbers from 1, a 1-byte kind and a protobuf payload of
// at most the message limit, which each side checks before allocating.
// The host sends call (a pb.LaneCall, with the caller's trace context),
// step and cancel frames; the mod sends activity, outcome (with the spans
// it finished), step result and failure frames. One connection carries
// every call of the process. The mod reads it on one goroutine, which
// hands each frame to its call. In the host, a caller waiting for its
// call's frames reads the lane when no other caller does (it holds the
// read token), hands the frames of other calls to theirs, and, once its
// own came, passes the token to a call still waiting: a call alone on the
// lane reads its outcome on its own goroutine, with no thread woken to
// pass it on. The rules that keep a waiting call from being left with
// nobody reading are [LaneClient]'s. A reading caller whose context ends
// is interrupted by a read deadline, and the frame it was within is read
// on by the next. While no call waits, nobody reads the lane: a mod that
// closed it or broke its protocol meanwhile is found at the next call. A
// frame over the limit fails its call alone; anything else the
// host did not ask for (an unknown call id or kind, a payload that does not
// decode) breaks the lane, and the host stops the mod.
//
// A live call's activity costs little more than a call: the mod's handler
// queues each update without waiting for a write, updates of one call
// that wait together become one activity frame (two ActivityBatch
// encodings, concatenated, are one batch), and the next frame sent takes
// them along, so a handler that reports in a loop and ends sends its
// updates and its outcome in one write. A handler that runs on has its
// updates written by the flusher, a goroutine that wakes every 1 to 4 ms
// while updates are posted (more often while it finds some to write) and
// ends after a sleep without any: a stream of live calls costs a wake per
// few milliseconds, not a goroutine and a thread woken per call. The host
// wakes a caller once for the frames of one read, not once per frame. Activity payloads are encoded
// and decoded by hand, byte for byte as package proto would, without its
// reflection: a posted update is encoded straight into the writer's
// pending bytes, and a batch reaches OnActivity without an allocation, its
// texts pointing into the frame's payload.
//
// What a call costs is mostly waking threads, so the lane avoids wakeups:
// the mod runs a call on a handler goroutine that finished one before
// (its stack has grown already) rather than a new one, and on Linux both
// ends read and write the socket with raw system calls, waiting in the
// runtime's poller: a system call through package net, the first after the
// process was idle, wakes the runtime's monitor thread, which then polls
// every 20 µs while the call runs.
//
// A socketpair needs neither TLS nor a peer check: it has no name and no
// listener, so nothing can connect to it, and its two descriptors are
// created close-on-exec. The host passes one to the one child it starts,
// and the mod marks its copy close-on-exec again, so the programs it runs
// do not inherit it: only the host and that mod hold an end. A process
// that could take a descriptor from the mod (ptrace, pidfd_getfd) needs
// the rights to debug it, and could as well act as the mod.
//
// Every request that runs a handler (a tool, view, command or hook) carries
// a call id the host made up and the host's grace period. A mod ends its
// process, with status [ExitGraceExpired], when a handler still runs a grace
// period after its request was cancelled; CallRunning lets the host check,
// as a backstop, by call id.
//
// # Handshake
//
// [Handshake] is the one handshake configuration; the serving side
// (sdk/serve) and the host both import it.
package protocol

// Package host runs mods: it loads their manifests, lists their tools, and
// runs each mod in its own go-plugin gRPC subprocess, started on first use.
//
// # Loading
//
// [Load] reads mod.manifest.json in each mod directory and checks that tool
// names are unique across mods. Listing tools with [Host.Tools] reads
// manifests only. A tool's input schema is compiled once, on its first call.
//
// # Building and starting
//
// On a mod's first use the host builds its binary with go build (adding the
// serving main package through -overlay) into [Options.CacheDir], keyed by a
// hash of the mod's sources, the module's go.mod and go.sum and the Go
// version, and records the binary's SHA-256. go-plugin verifies the checksum
// before every start, and host and mod talk over mutual TLS. The mod process
// dies with the host, even when the host is killed.
//
// # Calls
//
// [Host.Call] looks the tool up, applies the agent's allowlist, validates the
// input against the manifest schema, runs BeforeAction hooks, streams
// activity with the rules of [sdk.ActivityState] applied, and returns exactly
// one outcome: completed, failed or cancelled. Every call gets an id from the
// host ([CallResult.CallID]), which keys it in the mod; the caller's
// [CallRequest.Label] only names it in logs.
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
// Every operation is bounded: tool handlers by [Options.CallTimeout], hooks
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
// Every input is checked against the tool's manifest schema before its
// handler runs. The host checks it with santhosh-tekuri/jsonschema, compiled
// once per tool, unless the running mod reported at start that it checks the
// tool's input with a modgen-generated validator and its embedded manifest
// has exactly the loaded schemas: then the mod's check is the host's, and
// the host does not pay for it twice (it halves the host's CPU per call).
// When a mod hooks tool calls, the host always checks first, because hooks
// see only valid input. Problems read the same either way:
// "invalid input for tool T:" then one "/json/path: what is wrong" line each.
//
// # Closing
//
// [Host.Close] stops builds and starts under way and every mod process,
// gracefully, then by force: it returns within a few seconds whatever the
// mods do. Each process's socket directory ("modkit-<mod>-<host pid>-*" in
// the temporary directory) is removed when the process ends; directories
// left by a host that died are removed by the next host to start a mod.
package host

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
// one outcome: completed, failed or cancelled. A mod that crashes fails the
// calls in flight with a message naming it; the next call starts a fresh
// process. Cancelling the call's context cancels the handler's context in
// the mod; the call returns at once, and when the handler is still running
// [Options.GracePeriod] later the host kills the mod process (the next call
// starts a fresh one).
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
// # Limits
//
// Work a caller or a mod can cause is bounded. An input, a command's
// arguments or a view's state over [Options.MaxRequestBytes] (4 MiB by
// default) is refused before any hook or mod sees it, with a message naming
// the limit; a result over [Options.MaxResultBytes] fails the call. The gRPC
// message limits between host and mod, both ways and on both sides, follow
// from the two, so a request the host accepts always arrives. An invalid
// input lists its first 50 problems and counts the rest, and quotes
// offending values in part; the host's own check refuses a number written
// with over 1000 characters before its schema library does arithmetic on
// it. A call keeps 1000 log entries and 1 MiB of log, then one
// "log truncated" entry.
//
// # Closing
//
// [Host.Close] stops every mod process.
package host

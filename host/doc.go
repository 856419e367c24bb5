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
// Every input is judged once, before any hook sees it and before its
// handler runs. A mod that reports at start that it checks a tool's input
// with a modgen-generated validator, and whose embedded manifest has
// exactly the loaded schemas, judges it: as part of the call, or first,
// through its CheckInput RPC, when a loaded mod hooks tool calls. For any
// other tool the host judges with santhosh-tekuri/jsonschema on the
// manifest schema, compiled once per tool, fills in the defaults of absent
// keys, and never lets the library see what it cannot hold (numbers are
// bounded and nesting limited; a panic is recovered). Problems read the
// same, word for word, whichever side judged: "invalid input for tool T:"
// then one "/json/path: what is wrong" line each.
//
// # Closing
//
// [Host.Close] stops every mod process.
package host

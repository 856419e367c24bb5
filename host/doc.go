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
// serving main package through -overlay) into [Options.CacheDir]. A build
// is reused while all its inputs are unchanged: the go command's settings
// (Go version, GOOS, GOARCH, CGO_ENABLED, GOEXPERIMENT, GOFLAGS with its
// build tags, …), the main module's go.mod and go.sum and the workspace's
// go.work, and the files of every package of the build outside the
// standard library and the module cache (the mod, its sibling packages,
// replace targets, workspace modules), embedded files included. Packages in
// the module cache are named by version in go.mod and checked by go.sum.
// Hosts sharing a cache build each mod once. A failed build is reported
// once, in full, on [Options.Progress], and not tried again until an input
// changes.
//
// The cache is private: its directories are created 0700, and a directory,
// binary or record that anyone but the user can write is refused, since
// writing the cache is running code. Each build records the binary's
// SHA-256, which go-plugin verifies before every start: it catches a binary
// corrupted or replaced without its record, not someone able to write the
// cache. A binary that fails an identity check (its checksum, or serving
// another mod) is evicted and rebuilt. Host and mod talk over mutual TLS.
//
// The mod process dies with the host, even when the host is killed: on
// Linux by a parent-death signal, elsewhere because the mod watches its
// parent and exits when it is gone.
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
// # Closing
//
// [Host.Close] stops every mod process.
package host

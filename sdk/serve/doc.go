// Package serve runs a mod as a go-plugin gRPC subprocess of a modkit host.
//
// A mod's binary is built by the host; its main is always
//
//	package main
//
//	import (
//		mod "example.com/yourmod"
//		"github.com/modkit/modkit/sdk/serve"
//	)
//
//	func main() { serve.Main(mod.Modkit()) }
//
// where Modkit is the function modgen generates. Mod authors do not write
// this file: the host adds it when it builds the mod.
//
// # What serving does
//
// [Serve] answers the host's requests: it describes the mod (the embedded
// manifest), runs Activate once, runs tools, streaming each activity update
// as it happens and ending every call with exactly one outcome, renders
// views, runs commands and slash commands, and runs BeforeAction hooks.
// Input is checked and decoded by the generated validator. A handler's panic
// is recovered and becomes a failed outcome; it does not stop the mod.
//
// The code that does this is the same code sdk/modtest runs in a test's
// process; Serve puts it behind a gRPC server that speaks hashicorp/go-plugin's
// protocol (on Linux and macOS by itself, linking none of go-plugin, whose
// server carries TLS code these hosts never use) and, where the host
// hands the mod a call lane (a socketpair, on Linux and macOS), serves tool
// calls and their steps (hooks, input checks, approval rules) on the lane
// without gRPC.
//
// # Cancellation
//
// When the host cancels a call, a view, a command or a hook, or it times
// out, the handler's context is cancelled. When the handler keeps running
// past the grace period the host sent with the request, the process exits
// (the host kills it too, as a backstop). When the host stops the mod,
// cancelled handlers may finish within their grace periods before the
// process exits.
//
// # Memory
//
// Unless $GOGC is set (the host passes it on), a mod collects garbage no
// sooner than at a 16 MiB heap while its live heap is under 8 MiB: a mod
// under load collects four to eight times less often than Go's default
// would, for up to about 12 MiB more memory while it is busy; a larger
// heap is collected at Go's default pace.
//
// # Output and logs
//
// The mod must never write to stdout: go-plugin's handshake uses it. Logs go
// through the slog logger handlers receive, which writes JSON lines to
// stderr that the host re-logs at their level. The process exits when the
// host dies.
package serve

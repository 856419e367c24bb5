// Package protocol is the wire contract between a modkit host and a mod
// process: the go-plugin handshake, the versioned plugin sets, and the two
// ends of a [github.com/modkit/modkit/internal/modapi.Mod] over gRPC,
// [GRPCClient] in the host and [GRPCServer] in the mod, which convert
// between Go types and the generated gRPC types in package
// [github.com/modkit/modkit/internal/protocol/pb]. The host and sdk/serve
// use Go types only; pb types appear outside this package only in tests of
// the wire itself.
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

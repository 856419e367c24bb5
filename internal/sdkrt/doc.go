// Package sdkrt is how runtimes run what package sdk keeps from mod
// authors' view: a tool's input decoding, its handler with a fresh
// ToolContext, and its custom view.
//
// Package sdk fills [ToolOf] when it initializes; a mod author never sees
// any of this. The one runtime that calls it is internal/modserver, which
// sdk/serve serves over gRPC and sdk/modtest and the host's tests call in
// process, so a tool runs the same way everywhere.
//
// sdkrt imports nothing of sdk (sdk imports it), so the values crossing it
// are its own small types.
package sdkrt

// Package mcpwire is JSON-RPC 2.0 as modkit's MCP server reads and writes
// it on every transport: the error codes, request ids in their canonical
// form, a reader of a message's top-level members that decodes none of
// their values, the kind and id of a message, and the one writer of
// responses and errors, as bytes (for stdio) or as an HTTP answer.
//
// It imports nothing of the server: stdio, streamable HTTP, the direct
// path and tasks (internal/mcpbridge) all answer through it, so that a
// response reads the same whichever route served its request. Values are
// encoded as the MCP Go SDK encodes them (no HTML escaping), so that
// what the server writes itself reads as what the SDK writes.
package mcpwire

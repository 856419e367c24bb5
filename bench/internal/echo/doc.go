// Package echo holds the one tool every benchmark compares: its input type,
// the payload sent to it, and the reply computed from it.
//
// The modkit mod, the bare go-plugin plugin and the MCP server all decode
// [Payload] into [Input] and answer with [Reply], so the sides differ only in
// how the call travels.
package echo

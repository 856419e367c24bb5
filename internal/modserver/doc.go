// Package modserver runs a mod's handlers: [Server] implements
// [modapi.Mod] for one generated mod. A mod process serves it over gRPC
// (sdk/serve), and sdk/modtest and the host's tests call it in process, so
// a tool, command, hook or view runs the same way everywhere.
//
// The server decodes input with the generated validator (encoding/json when
// there is none), recovers every handler's panic into a failed outcome that
// names what panicked, caps results and messages, trims a slash command's
// text, and tracks running handlers for CallRunning.
package modserver

// Package answercheck judges the answers to the questions a tool's handler
// asks, on the host's side (and in sdk/modtest): in the words the host uses
// for a tool's input. It is kept out of modapi, which mod binaries link, as
// it compiles JSON Schemas.
package answercheck

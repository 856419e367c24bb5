// Package apilist lists the exported API of Go packages, one line per
// exported name with its type or signature, in the style of the Go
// distribution's api/*.txt files:
//
//	pkg github.com/modkit/modkit/sdk/modtest, const StatusCompleted Status = "completed"
//	pkg github.com/modkit/modkit/sdk/modtest, method (*Outcome) ViewState() github.com/modkit/modkit/sdk.RawViewState
//	pkg github.com/modkit/modkit/sdk/modtest, type Outcome struct, Text string
//	pkg github.com/modkit/modkit/sdk/modtest, const Completed //deprecated
//
// A name whose doc comment has a "Deprecated:" paragraph gets a second line
// ending in //deprecated.
//
// # The API check
//
// Its test, TestAPI, compares the API of modkit's public packages
// ([Public]) with the file api/modkit.txt at the repository's root. It
// fails when they differ, and `go test ./internal/apilist -run TestAPI
// -update` rewrites the file; a line removed or changed (a name removed,
// renamed, or given another type) is accepted only when CHANGELOG.md names
// it (`modtest.Completed`, `sdk.Result.Data`), so that no mod author meets
// a change the changelog does not tell of.
package apilist

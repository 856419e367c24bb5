// Package freshness tells whether a mod package's generated files were
// generated from its current sources.
//
// modgen records in mod.manifest.json (and in the manifest embedded in
// zz_generated.modgen.go) a hash of the package's Go files, computed by
// [Files]. [Dir] computes the same hash from a directory without the go
// command, and [Check] compares it with the recorded one: the host runs it
// before building or starting a mod, and sdk/modtest before running a
// tool, so a stale generated file never reaches a running mod unseen.
//
// The hash covers the Go files the go command would compile for the host's
// platform (build constraints applied with go/build's default context),
// tests and the generated file left out. It reads a few kilobytes per mod:
// cheap enough for every load.
package freshness

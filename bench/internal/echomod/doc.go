// Package echomod is the mod the benchmarks call through the modkit host: an
// echo tool, the same echo sending ten activity updates, and a tool that
// waits for cancellation and records when it saw it.
//
// Run go generate after changing the mod: the host and the benchmarks use
// the manifest and validators modgen writes beside it.
package echomod

//go:generate go run github.com/modkit/modkit/cmd/modgen .

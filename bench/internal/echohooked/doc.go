// Package echohooked is the echo mod's hooked twin: the same echo tool, in
// a mod with a hook on every tool call, as most mods that guard their tools
// have. The benchmark's hooked_vs_call row calls it beside the echo mod.
//
// Run go generate after changing the mod: the host and the benchmarks use
// the manifest and validators modgen writes beside it.
package echohooked

//go:generate go run github.com/modkit/modkit/cmd/modgen .

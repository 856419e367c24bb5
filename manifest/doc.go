// Package manifest defines mod.manifest.json, the file modgen writes beside a
// mod's Go package and a host reads to list, validate and route the mod's
// tools and commands without starting the mod.
//
// # Format
//
// A [Manifest] names the mod (id, display name, description), the Go package
// it was generated from and a hash of those sources, and lists its tools,
// commands, slash commands, hooks and agents. Each tool carries the JSON Schema
// (draft 2020-12) of its input, and for rendered tools of its result.
// clientActions lists the kinds of client action the mod's tools may emit
// ([ClientActionKind], with the JSON Schema of its params), and each tool
// names the kinds it emits in its own clientActions.
//
// The format has a version, [FormatVersion], "MAJOR.MINOR". A reader accepts
// any minor version of a major it knows; a newer major is refused with
// [ErrNewerFormat], because fields it does not know may change what a manifest
// means.
//
// The format is itself described by a JSON Schema, [Schema], embedded in this
// package.
//
// # Reading and writing
//
// [Encode] writes a manifest in its canonical form: the same manifest always
// gives the same bytes. [Decode] and [Load] read one strictly: unknown fields,
// wrong types, a newer major version, duplicate tool names, command ids,
// slash command ids or agent names, tool names that are not snake_case, empty
// descriptions and hooks on unknown targets are all errors. Every problem
// names the offending entry:
//
//	manifest research: tools[1] "Bad-Name": name must be snake_case
//
// [Validate] runs the same semantic checks on a manifest built in Go.
//
// # Rules
//
// Every check on what a mod's author declares is a [Rule], listed by
// [Rules]: one place holds them, so the host and modgen never disagree.
// modgen builds the manifest, runs [Validate] on it and reports each
// [Problem] at the declaration that breaks the rule, using the problem's
// [Rule] name and [Location]; a mod that generates is a mod the host loads.
// A new rule is declared in rules.go, reported with its location, and given
// a case in modgen's rulebook test, which fails for a rule without one.
package manifest

// Package build runs modgen's passes on one mod package: it reads the
// DefineMod value, checks the mod's rules, derives the JSON Schemas of the
// tools' inputs and results, and produces the two generated files,
// mod.manifest.json and zz_generated.modgen.go, as bytes.
//
// # Rules
//
// The rules about a mod's declarations are manifest's ([manifest.Rules]):
// the rulebook pass runs [manifest.Validate] on the manifest built from the
// source and reports each problem at the literal that causes it, so a mod
// that generates is a mod the host loads. TestRulebook breaks every rule and
// fails for a rule it has no case for.
//
// modgen adds errors only the Go source shows: no or two DefineMod values,
// non-constant names, a tool with neither Run nor Client, a command, slash
// command or hook with no Run, and types JSON cannot carry. Warnings (the
// run succeeds): descriptions that do not say when to call the tool, and
// activity labels that are not present tense with an ellipsis.
//
// Nothing here writes files; see [Mod] and [Output].
package build

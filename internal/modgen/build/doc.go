// Package build runs modgen's passes on one mod package: it reads the
// DefineMod value, checks the mod's rules, derives the JSON Schemas of the
// tools' inputs and results, and produces the two generated files,
// mod.manifest.json and zz_generated.modgen.go, as bytes.
//
// # Rules
//
// Errors (the run fails): no or two DefineMod values, non-constant names,
// duplicate tool names or command ids, names that are not snake_case, empty
// descriptions, hook targets that are neither a host action nor
// "command:<own id>", a tool with neither Run nor Client, a command, slash
// command or hook with no Run, and types JSON cannot carry. Warnings (the run
// succeeds): descriptions that do not say when to call the tool, and
// activity labels that are not present tense with an ellipsis.
//
// Nothing here writes files; see [Mod] and [Output].
package build

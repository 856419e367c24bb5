// Package dependencies is an example mod that answers "what depends on this
// package?" for the Go module, or go.work workspace, under the session's
// workspace root.
//
// # Tools
//
//   - dependencies_inspect (rendered) lists the workspace packages that import
//     a given package, directly, and with transitive set also indirectly,
//     each with the chain of imports that links it to the package. An
//     unknown import path gets a plain answer listing close matches.
//
// It reads go.work or go.mod and the import blocks of the .go files itself,
// with go/parser: its tools run no go command, need no network, and treat
// every file as part of its package whatever its build constraints.
//
// # Permissions
//
// The command dependencies.toolchain says which Go toolchain builds the
// workspace, asking the go command. So the mod declares that it runs "go"
// and reads "$GOROOT", and nothing else: on Linux the host confines it to
// that, its workspace read-only.
//
// # For people
//
// The slash command "/deps <import path>" prints the same answer, transitive.
// It is also the MCP prompt deps, whose package argument completes from the
// workspace's import paths: the dependents, and a request to weigh a change
// of the package's API against them.
// The reviewer agent may call dependencies_inspect and the research mod's
// search tool, and nothing else.
package dependencies

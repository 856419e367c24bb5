// Command modgen derives a mod's manifest and input validators from its Go
// source. Run it from a mod package with go generate:
//
//	//go:generate go run github.com/modkit/modkit/cmd/modgen
//
// or by hand:
//
//	modgen [-check] [PACKAGE ...]
//	modgen schema PACKAGE TYPE
//	modgen init [DIR]
//
// For each mod package (default ".") it writes mod.manifest.json and
// zz_generated.modgen.go beside the sources. With -check it writes nothing
// and exits 1, naming the stale files, when either would change. The schema
// subcommand prints the JSON Schema of one named type of any package. The
// init subcommand writes a new mod into DIR (default "."), named after the
// last element of its import path (the module's path, or the directory's
// name outside a module), with one tool and a test: after go generate it passes its test
// and runs under modhost as written.
//
// Problems are printed as file:line:col: message, all of them at once;
// errors exit 1, warnings alone exit 0, usage errors exit 2.
package main

// Package codegen writes a mod's zz_generated.modgen.go with
// github.com/dave/jennifer: one validator function per input schema and
// $defs entry, the decode glue of each tool, the embedded manifest, and the
// Modkit function that binds them to the mod's DefineMod value.
//
// # Validators
//
// A validator walks the raw JSON once with a [jsoncheck.Checker], checks
// every rule of the schema it was generated from, and reports every
// problem by JSON path. Nothing is reflected upon; the decode glue then
// hands valid bytes to encoding/json.
//
// [jsoncheck.Checker]: https://pkg.go.dev/github.com/modkit/modkit/sdk/jsoncheck#Checker
package codegen

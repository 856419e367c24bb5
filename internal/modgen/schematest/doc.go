// Package schematest holds Go types that exercise every rule of modkit's
// schema convention, the validators modgen generates for them
// (zz_generated.modgen.go), and the tests that pin both: golden schemas,
// a differential fuzz target against santhosh-tekuri/jsonschema, and the
// validator benchmarks.
//
// Regenerate the golden files, and review their diff, with
//
//	go generate ./internal/modgen/schematest
package schematest

//go:generate go run ./gen

// Package schemagen derives the schemas and the validator file of package
// schematest from its source; the golden test and the regenerating command
// share it, so a broken generated file never blocks regeneration.
package schemagen

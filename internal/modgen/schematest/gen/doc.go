// Command gen rewrites the golden files of package schematest: run it from
// that directory (go generate does).
package main

// Package jsoncheck is the runtime support of the validators modgen
// generates: a single-pass JSON scanner that checks raw input bytes against
// a tool's input contract without reflection, and the problem reporting that
// turns every violation into a line a model can act on:
//
//	/limit: must be at most 50, got 80
//
// # Use
//
// Generated code takes a [Checker] with [New], walks the value with
// [Checker.Kind], [Checker.Str], [Checker.Num], [Checker.Enter] and
// [Checker.Next], reports violations with [Checker.Report], and finally
// calls [Checker.Decode] to turn valid input into the Go value. A checker
// reports problems by JSON Pointer path, "/" for the root, and stops at the
// first syntax error.
//
// # Semantics
//
// The checks follow JSON Schema draft 2020-12 as modkit's schema convention
// uses it: string lengths count Unicode code points, integers are numbers
// with no fractional part (5.0 is an integer and decodes to 5), numbers are
// compared exactly as decimals, and the formats date-time, date, email, uri
// and uuid are asserted. Object keys match case-sensitively; a key given
// twice is a problem.
//
// The happy path allocates nothing besides the pooled checker.
package jsoncheck

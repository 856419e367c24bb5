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
// [Checker.Next], and reports violations with [Checker.Report]. A checker
// reports problems by JSON Pointer path, "/" for the root, and stops at the
// first syntax error.
//
// Valid input is then decoded into the Go value: when [Checker.Fill]
// reports true, generated fill code walks the bytes a second time and
// assigns fields directly, handing only values it has no direct decoding for
// to encoding/json ([Checker.Unmarshal]); otherwise [Checker.Decode]
// returns the problems as an *sdk.InputError, or decodes the whole input
// with encoding/json after writing integers such as 5.0 as 5.
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

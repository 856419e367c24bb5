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
// [Checker.Next], and reports violations with [Checker.Problem]. A checker
// reports problems by JSON Pointer path, "/" for the root, and stops at the
// first syntax error.
//
// Valid input is then decoded into the Go value: when [Checker.Fill]
// reports true, generated fill code walks the bytes a second time and
// assigns fields directly, handing only values it has no direct decoding for
// to encoding/json ([Checker.Unmarshal], which writes integers such as 5.0
// as 5 first), and filling in the defaults of absent keys
// ([Checker.Default]); otherwise [Checker.Err] returns the problems as an
// *sdk.InputError.
//
// # Words
//
// Generated code words its problems with the Msg functions ([MsgBound],
// [MsgEnum], …); the checker words the rest (wrong types, missing and
// unknown properties, syntax). The words themselves live in one internal
// package of modkit, which the host's JSON Schema fallback uses too, so a
// model reads the same list whichever side judged. Messages speak JSON,
// never Go: a type, a package or a time layout never appears in them.
//
// Everything this package exports is for generated code; a mod's author
// never calls it.
//
// # Version
//
// Generated files carry a compile-time guard against this package
// ([Version], [MinVersion], [RegenerateWithGoGenerate]): a file generated
// for another version fails to compile with a message naming
// RegenerateWithGoGenerate, and go generate fixes it.
//
// # Semantics
//
// The checks follow JSON Schema draft 2020-12 as modkit's schema convention
// uses it: string lengths count Unicode code points, integers are numbers
// with no fractional part (5.0 is an integer and decodes to 5), numbers are
// compared exactly as decimals, and the formats date-time, date, email, uri
// and uuid are asserted, as are the Go ranges int8 to uint64, float and
// double. Object keys match case-sensitively; a key given twice is a
// problem. A syntax error is the only problem reported with it. No number
// beyond a 64-bit float is accepted anywhere; an integer's problem names
// its own bound (at most 500, the range of int64), not a float's. A number
// written with more than 1000 characters is one problem, judged no
// further.
//
// The happy path allocates nothing besides the pooled checker.
package jsoncheck

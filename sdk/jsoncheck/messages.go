package jsoncheck

import "github.com/modkit/modkit/internal/words"

// The problem words generated validators report with [Checker.Problem]:
// each returns the text after "/path: ". They are for generated code; the
// words themselves live in modkit's one wording package, which every other
// side that judges an input uses too, so a model reads the same problem
// whichever side judged.

// MsgBound says a number is outside a bound; keyword is minimum,
// exclusiveMinimum, maximum or exclusiveMaximum; raw is the number as sent.
func MsgBound(keyword, bound, raw string) string { return words.Bound(keyword, bound, raw) }

// MsgMultipleOf says a number is not a multiple of step.
func MsgMultipleOf(step, raw string) string { return words.MultipleOf(step, raw) }

// MsgMinLength says a string is shorter than min characters (Unicode code
// points); n is its length.
func MsgMinLength(min uint64, n int) string { return words.MinLength(min, n) }

// MsgMaxLength says a string is longer than max characters.
func MsgMaxLength(max uint64, n int) string { return words.MaxLength(max, n) }

// MsgPattern says a string does not match a regular expression.
func MsgPattern(pattern, s string) string { return words.Pattern(pattern, s) }

// MsgFormat says a string is not in a format: date-time, date, email,
// uri, uuid, or the range of a number written as a string (int8 … uint64,
// float, double).
func MsgFormat(format, s string) string { return words.Format(format, s) }

// MsgBase64 says a string is not base64.
func MsgBase64() string { return words.Base64() }

// MsgEnum says a value is none of the allowed ones; lits are JSON
// literals and got is the value as sent: quoted for a string.
func MsgEnum(lits []string, got string) string { return words.Enum(lits, got) }

// MsgMinItems says an array has fewer than min items; n is how many.
func MsgMinItems(min uint64, n int) string { return words.MinItems(min, n) }

// MsgMaxItems says an array has more than max items.
func MsgMaxItems(max uint64, n int) string { return words.MaxItems(max, n) }

// MsgUnique says items i and j of an array are equal.
func MsgUnique(i, j int) string { return words.Unique(i, j) }

// MsgMinProperties says an object has fewer than min properties.
func MsgMinProperties(min uint64, n int) string { return words.MinProperties(min, n) }

// MsgMaxProperties says an object has more than max properties.
func MsgMaxProperties(max uint64, n int) string { return words.MaxProperties(max, n) }

// MsgKeyPattern says an object key does not match a pattern.
func MsgKeyPattern(pattern string) string { return words.KeyPattern(pattern) }

// MsgKeyFormat says an object key, a number, is beyond its range.
func MsgKeyFormat(format, key string) string { return words.KeyFormat(format, key) }

// MsgMissingOneOf says an object has none of the properties names, of
// which it needs one or more (anyOf of required).
func MsgMissingOneOf(names []string) string { return words.MissingOneOf(names) }

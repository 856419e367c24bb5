package jsoncheck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/modkit/modkit/internal/jsonwords"
	"github.com/modkit/modkit/internal/limits"
)

// The words of every problem, in one place: generated validators report
// through the Checker methods that use them, and a runtime that judges
// input another way (the host's JSON Schema fallback) builds its lines
// from the same functions, so a model reads the same problem list
// whichever side judged. Each returns the text after "/path: ".

// MsgType says a value has the wrong JSON type: want is "a string", "an
// integer", …; got is the kind of the value sent, as [Kind.String] says it.
func MsgType(want, got string) string { return "must be " + want + ", got " + got }

// MsgNotInteger says a number has a fractional part.
func MsgNotInteger(raw string) string { return "must be an integer, got " + echo(raw) }

// MsgBound says a number is outside a bound; keyword is minimum,
// exclusiveMinimum, maximum or exclusiveMaximum.
func MsgBound(keyword, bound, raw string) string {
	words := map[string]string{
		"minimum": "at least", "exclusiveMinimum": "greater than",
		"maximum": "at most", "exclusiveMaximum": "less than",
	}[keyword]
	return "must be " + words + " " + bound + ", got " + echo(raw)
}

// MsgNumberLength says a number is written with n characters, more than
// limits.MaxNumberChars.
func MsgNumberLength(n int) string {
	return fmt.Sprintf("must be a number at most %d characters long, got %d", limits.MaxNumberChars, n)
}

// MsgMultipleOf says a number is not a multiple of step.
func MsgMultipleOf(step, raw string) string {
	return "must be a multiple of " + step + ", got " + echo(raw)
}

// MsgMinLength and MsgMaxLength say a string is too short or too long, in
// characters (Unicode code points).
func MsgMinLength(min uint64, n int) string {
	return fmt.Sprintf("must be at least %s long, got %d", plural(min, "character", "characters"), n)
}

// MsgMaxLength: see MsgMinLength.
func MsgMaxLength(max uint64, n int) string {
	return fmt.Sprintf("must be at most %s long, got %d", plural(max, "character", "characters"), n)
}

// MsgPattern says a string does not match a regular expression; a
// date-time that does not match TimePattern is told what a date-time is.
func MsgPattern(pattern, s string) string {
	if pattern == TimePattern {
		return "must be " + formatWords("date-time") + ", got " + quote(s)
	}
	return "must match the pattern " + strconv.Quote(pattern) + ", got " + quote(s)
}

// TimePattern is the pattern of a time.Time beyond its format date-time:
// Go's time decoding wants upper-case T and Z and no leap second.
const TimePattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-5][0-9](\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`

// MsgFormat says a string is not in a format: date-time, date, email,
// uri, uuid, or the range of a number written as a string (int8 … uint64,
// float, double).
func MsgFormat(format, s string) string {
	if _, ok := goRanges[format]; ok {
		return MsgRange(format, quote(s), strings.HasPrefix(s, "-"))
	}
	return "must be " + formatWords(format) + ", got " + quote(s)
}

// MsgGoTime says a date-time was written with escapes, which Go's time
// decoding refuses; raw is the string as sent.
func MsgGoTime(raw string) string {
	return "must be " + formatWords("date-time") + " written without escapes, got \"" + echo(raw) + "\""
}

// MsgRange says a number is beyond what its format holds (int64, uint64,
// float, …, and every JSON number beyond a 64-bit float); raw is the
// value as sent and neg its sign.
func MsgRange(format, raw string, neg bool) string {
	r := goRanges[format]
	if neg {
		return MsgBound("minimum", r[0], raw)
	}
	return MsgBound("maximum", r[1], raw)
}

// MsgBase64 says a string is not base64.
func MsgBase64() string { return "must be base64 text (standard alphabet, padded)" }

// MsgEnum says a value is none of the allowed ones; lits are JSON
// literals and got is the value as sent: quoted for a string.
func MsgEnum(lits []string, got string) string {
	return "must be one of " + strings.Join(lits, ", ") + ", got " + echo(got)
}

// MsgMinItems and MsgMaxItems say an array has too few or too many items.
func MsgMinItems(min uint64, n int) string {
	return fmt.Sprintf("must have at least %s, got %d", plural(min, "item", "items"), n)
}

// MsgMaxItems: see MsgMinItems.
func MsgMaxItems(max uint64, n int) string {
	return fmt.Sprintf("must have at most %s, got %d", plural(max, "item", "items"), n)
}

// MsgUnique says two items of an array are equal.
func MsgUnique(i, j int) string {
	return fmt.Sprintf("items must be unique, but items %d and %d are equal", i, j)
}

// MsgMinProperties and MsgMaxProperties say an object has too few or too
// many properties.
func MsgMinProperties(min uint64, n int) string {
	return fmt.Sprintf("must have at least %s, got %d", plural(min, "property", "properties"), n)
}

// MsgMaxProperties: see MsgMinProperties.
func MsgMaxProperties(max uint64, n int) string {
	return fmt.Sprintf("must have at most %s, got %d", plural(max, "property", "properties"), n)
}

// MsgKeyPattern says an object key does not match a pattern.
func MsgKeyPattern(pattern string) string {
	return "property name must match the pattern " + strconv.Quote(pattern)
}

// MsgKeyFormat says an object key, a number, is beyond its range.
func MsgKeyFormat(format, key string) string {
	return "property name " + MsgFormat(format, key)
}

// MsgMissing says a required property is absent.
func MsgMissing(name string) string { return "missing required property " + strconv.Quote(name) }

// MsgMissingOneOf words an object that has none of the properties names,
// of which it needs one or more (anyOf of required).
func MsgMissingOneOf(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	last := len(q) - 1
	if last < 1 {
		return "missing required property " + strings.Join(q, "")
	}
	return "missing one of the properties " + strings.Join(q[:last], ", ") + " or " + q[last]
}

// echo is the one way a value from the input enters a message, as sent.
// A JSON string cut short keeps its closing quote.
func echo(raw string) string {
	if len(raw) > limits.MaxEcho && len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		return `"` + limits.Echo(raw[1:len(raw)-1]) + `"`
	}
	return limits.Echo(raw)
}

// quote is echo for a string value, which a message quotes.
func quote(s string) string { return strconv.Quote(limits.Echo(s)) }

// MsgUnknown says a closed object has no property key; allowed lists the
// quoted names it has, "" when none.
func MsgUnknown(key, allowed string) string {
	if allowed == "" {
		return "unknown property " + quote(key) + ": the object takes no properties"
	}
	return "unknown property " + quote(key) + " (allowed: " + allowed + ")"
}

// MsgDuplicate says a key is given twice.
func MsgDuplicate(key string) string { return "duplicate property " + quote(key) }

// MsgSyntax says the input stops being JSON at a byte offset.
func MsgSyntax(offset int, detail string) string {
	return fmt.Sprintf("invalid JSON at byte %d: %s", offset, detail)
}

func plural(n uint64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatUint(n, 10) + " " + many
}

// formatWords says in words what a format wants.
func formatWords(format string) string {
	switch format {
	case "date-time":
		return jsonwords.DateTimeWords
	case "date":
		return jsonwords.DateWords
	case "email":
		return "an email address"
	case "uri":
		return "an absolute URI such as https://example.com/x"
	case "uuid":
		return "a UUID such as 123e4567-e89b-12d3-a456-426614174000"
	}
	return "in the format " + format
}

// goRanges are the ranges of the formats that hold a number to what a Go
// type decodes: the first and last value, as JSON numbers.
var goRanges = map[string][2]string{
	"int8":   {"-128", "127"},
	"int16":  {"-32768", "32767"},
	"int32":  {"-2147483648", "2147483647"},
	"int64":  {"-9223372036854775808", "9223372036854775807"},
	"uint8":  {"0", "255"},
	"uint16": {"0", "65535"},
	"uint32": {"0", "4294967295"},
	"uint64": {"0", "18446744073709551615"},
	"float":  {"-3.4028234663852886e38", "3.4028234663852886e38"},
	"double": {"-1.7976931348623157e308", "1.7976931348623157e308"},
}

// decodeProblem words a decoding failure of encoding/json without Go's
// names: the kind of value wanted and what was sent.
func decodeProblem(err error) string { return jsonwords.Decode(err) }

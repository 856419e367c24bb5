package words

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/modkit/modkit/internal/limits"
)

// The words of every problem JSON Schema finds in an input: generated
// validators report through sdk/jsoncheck, which calls these, and the
// host's JSON Schema fallback builds its lines from the same functions, so
// a model reads the same problem list whichever side judged. Each returns
// the text after "/path: ".

// Type says a value has the wrong JSON type: want is "a string", "an
// integer", …; got is the kind of the value sent, as jsoncheck.Kind.String says it.
func Type(want, got string) string { return "must be " + want + ", got " + got }

// NotInteger says a number has a fractional part.
func NotInteger(raw string) string { return "must be an integer, got " + echoRaw(raw) }

// Bound says a number is outside a bound; keyword is minimum,
// exclusiveMinimum, maximum or exclusiveMaximum.
func Bound(keyword, bound, raw string) string {
	words := map[string]string{
		"minimum": "at least", "exclusiveMinimum": "greater than",
		"maximum": "at most", "exclusiveMaximum": "less than",
	}[keyword]
	return "must be " + words + " " + bound + ", got " + echoRaw(raw)
}

// NumberLength says a number is written with n characters, more than
// limits.MaxNumberChars.
func NumberLength(n int) string {
	return fmt.Sprintf("must be a number at most %d characters long, got %d", limits.MaxNumberChars, n)
}

// MultipleOf says a number is not a multiple of step.
func MultipleOf(step, raw string) string {
	return "must be a multiple of " + step + ", got " + echoRaw(raw)
}

// MinLength and MaxLength say a string is too short or too long, in
// characters (Unicode code points).
func MinLength(min uint64, n int) string {
	return fmt.Sprintf("must be at least %s long, got %d", plural(min, "character", "characters"), n)
}

// MaxLength: see MinLength.
func MaxLength(max uint64, n int) string {
	return fmt.Sprintf("must be at most %s long, got %d", plural(max, "character", "characters"), n)
}

// Pattern says a string does not match a regular expression; a
// date-time that does not match TimePattern is told what a date-time is.
func Pattern(pattern, s string) string {
	if pattern == TimePattern {
		return "must be " + formatWords("date-time") + ", got " + quote(s)
	}
	return "must match the pattern " + strconv.Quote(pattern) + ", got " + quote(s)
}

// TimePattern is the pattern of a time.Time beyond its format date-time:
// Go's time decoding wants upper-case T and Z and no leap second.
const TimePattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-5][0-9](\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`

// Format says a string is not in a format: date-time, date, email,
// uri, uuid, or the range of a number written as a string (int8 … uint64,
// float, double).
func Format(format, s string) string {
	if _, ok := GoRanges[format]; ok {
		return Range(format, quote(s), strings.HasPrefix(s, "-"))
	}
	return "must be " + formatWords(format) + ", got " + quote(s)
}

// GoTime says a date-time was written with escapes, which Go's time
// decoding refuses; raw is the string as sent.
func GoTime(raw string) string {
	return "must be " + formatWords("date-time") + " written without escapes, got \"" + echoRaw(raw) + "\""
}

// Range says a number is beyond what its format holds (int64, uint64,
// float, …, and every JSON number beyond a 64-bit float); raw is the
// value as sent and neg its sign.
func Range(format, raw string, neg bool) string {
	r := GoRanges[format]
	if neg {
		return Bound("minimum", r[0], raw)
	}
	return Bound("maximum", r[1], raw)
}

// Base64 says a string is not base64.
func Base64() string { return "must be base64 text (standard alphabet, padded)" }

// Enum says a value is none of the allowed ones; lits are JSON
// literals and got is the value as sent: quoted for a string.
func Enum(lits []string, got string) string {
	return "must be one of " + strings.Join(lits, ", ") + ", got " + echoRaw(got)
}

// MinItems and MaxItems say an array has too few or too many items.
func MinItems(min uint64, n int) string {
	return fmt.Sprintf("must have at least %s, got %d", plural(min, "item", "items"), n)
}

// MaxItems: see MinItems.
func MaxItems(max uint64, n int) string {
	return fmt.Sprintf("must have at most %s, got %d", plural(max, "item", "items"), n)
}

// Unique says two items of an array are equal.
func Unique(i, j int) string {
	return fmt.Sprintf("items must be unique, but items %d and %d are equal", i, j)
}

// MinProperties and MaxProperties say an object has too few or too
// many properties.
func MinProperties(min uint64, n int) string {
	return fmt.Sprintf("must have at least %s, got %d", plural(min, "property", "properties"), n)
}

// MaxProperties: see MinProperties.
func MaxProperties(max uint64, n int) string {
	return fmt.Sprintf("must have at most %s, got %d", plural(max, "property", "properties"), n)
}

// KeyPattern says an object key does not match a pattern.
func KeyPattern(pattern string) string {
	return "property name must match the pattern " + strconv.Quote(pattern)
}

// KeyFormat says an object key, a number, is beyond its range.
func KeyFormat(format, key string) string {
	return "property name " + Format(format, key)
}

// Missing says a required property is absent.
func Missing(name string) string { return "missing required property " + strconv.Quote(name) }

// MissingOneOf words an object that has none of the properties names,
// of which it needs one or more (anyOf of required).
func MissingOneOf(names []string) string {
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

// Unknown says a closed object has no property key; allowed lists the
// quoted names it has, "" when none.
func Unknown(key, allowed string) string {
	if allowed == "" {
		return "unknown property " + quote(key) + ": the object takes no properties"
	}
	return "unknown property " + quote(key) + " (allowed: " + allowed + ")"
}

// Duplicate says a key is given twice.
func Duplicate(key string) string { return "duplicate property " + quote(key) }

// Syntax says the input stops being JSON at a byte offset.
func Syntax(offset int, detail string) string {
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
		return DateTimeWords
	case "date":
		return DateWords
	case "email":
		return "an email address"
	case "uri":
		return "an absolute URI such as https://example.com/x"
	case "uuid":
		return "a UUID such as 123e4567-e89b-12d3-a456-426614174000"
	}
	return "in the format " + format
}

// GoRanges are the ranges of the formats that hold a number to what a Go
// type decodes: the first and last value, as JSON numbers.
var GoRanges = map[string][2]string{
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

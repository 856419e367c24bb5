// Package jsontree gives a runtime that judges decoded values (the host's
// JSON Schema fallback, internal/schemacheck) an input exactly as the
// scanner of generated validators reads it, so that it words and orders
// its problems as a generated validator does: the parsed tree with the
// offsets of every value and key ([Parse]), and the formats generated
// validators assert ([FormatValue], [FormatNames]).
//
// The scanner is sdk/jsoncheck's, which fills [Scanner] when it
// initializes; a program calling this package links sdk/jsoncheck
// (internal/schemacheck imports it). Nothing here is part of
// sdk/jsoncheck's public API, which holds only what generated code calls.
package jsontree

// Scanner is sdk/jsoncheck's implementation of this package's functions,
// set when sdk/jsoncheck initializes.
var Scanner struct {
	Parse       func(data []byte) (*Node, []Located)
	FormatValue func(format string, v any) bool
	IsGoTime    func(raw []byte) bool
	IsDateTime  func(s string) bool
}

// Node is one value of a parsed input, for runtimes that judge decoded
// values (a JSON Schema validator) and must word and order their problems
// as a generated validator does.
type Node struct {
	// Value is the decoded value: nil, bool, json.Number, string, []any or
	// map[string]any. Of a key given twice, the first value counts, as a
	// generated validator takes it. A number beyond a 64-bit float is
	// given as ±1e400 (±1e400+0.5 when it has a fraction) and one nearer
	// zero than 1e-400 as ±1e-400, so validators that compute with it
	// stay bounded. A number written with more than
	// limits.MaxNumberChars characters is given as 0 and marked Long.
	Value any
	// Start and End are the offsets of the value's text, Raw the text.
	Start, End int
	Raw        []byte
	// Items are an array's items.
	Items []*Node
	// Keys, KeyAt and Members are an object's keys, the offsets of the
	// keys, and their values, in input order; a key given twice is in
	// Dups instead.
	Keys    []string
	KeyAt   []int
	Members []*Node
	// Dups are the later occurrences of keys given twice.
	Dups []Dup
	// Escaped reports a string written with escapes.
	Escaped bool
	// Long reports a number written with more than limits.MaxNumberChars
	// characters: its one problem is in [Parse]'s list, and a generated
	// validator judges it no further.
	Long bool
}

// Dup is a key given again in one object.
type Dup struct {
	Key string
	At  int
}

// Located is a problem line with the offset of what it is about.
type Located struct {
	At   int
	Line string
}

// Parse parses data as one JSON value with the scanner of generated
// validators. It returns the root, and the problems the scanner itself
// finds: a syntax error (then alone, and root is nil), numbers written
// too long ([Node.Long]) and numbers beyond a 64-bit float, worded and
// placed as a generated validator reports them. A generated validator
// leaves an integer beyond a 64-bit float to the integer's own range: a
// runtime drops that problem where the schema wants an integer.
func Parse(data []byte) (*Node, []Located) { return Scanner.Parse(data) }

// FormatValue reports whether a decoded JSON value (a string, or a number
// as json.Number) is in the format, exactly as generated validators
// assert it. Other values pass.
func FormatValue(format string, v any) bool { return Scanner.FormatValue(format, v) }

// FormatNames returns the formats generated validators assert.
func FormatNames() []string {
	return []string{"date-time", "date", "email", "uri", "uuid",
		"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float", "double"}
}

// IsGoTime reports whether raw, the contents of a JSON string as written,
// is a date-time Go's time.Time decodes: RFC 3339 with an upper-case T and
// Z, no leap second, no escapes.
func IsGoTime(raw []byte) bool { return Scanner.IsGoTime(raw) }

// IsDateTime reports whether s is an RFC 3339 date-time, as the format
// date-time asserts it.
func IsDateTime(s string) bool { return Scanner.IsDateTime(s) }

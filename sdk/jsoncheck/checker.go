package jsoncheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// Kind is the kind of the next JSON value.
type Kind uint8

// The kinds of JSON value; Invalid means the input is not JSON there.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// String returns the kind as a problem message names it: "a string".
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "a boolean"
	case Number:
		return "a number"
	case String:
		return "a string"
	case Array:
		return "an array"
	case Object:
		return "an object"
	}
	return "invalid JSON"
}

// segment is one level of the path: an object key or an array index.
type segment struct {
	array bool
	count int // keys or items seen so far
	// key is the current key, as offsets into the input.
	keyStart, keyEnd int
	keyEsc           bool
}

// rewrite replaces input[start:end] by an integer literal before decoding.
type rewrite struct {
	start, end int
	num        Num
}

// Checker scans one JSON input and collects its problems. Get one with New
// and give it back with Release.
type Checker struct {
	data     []byte
	pos      int
	failed   bool
	path     []segment
	problems []string // the first limits.MaxProblems problems
	more     int      // problems found after those
	rewrites []rewrite
	sbuf     []byte // unescaped string value
	kbuf     []byte // unescaped key
	escaped  bool   // whether the last Str had escapes
	// mute drops the problems of the value just scanned, after the one
	// problem of a number too long to judge; the next value ends it.
	mute bool
}

// plain marks the string bytes the scanner can pass over: printable ASCII
// other than the quote and the backslash.
var plain = func() (t [256]bool) {
	for b := 0x20; b < 0x80; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

var pool = sync.Pool{New: func() any { return &Checker{path: make([]segment, 0, 16)} }}

// New returns a checker positioned at the start of data.
func New(data []byte) *Checker {
	c := pool.Get().(*Checker)
	c.data = data
	c.pos = 0
	c.failed = false
	c.path = c.path[:0]
	c.problems = nil
	c.more = 0
	c.mute = false
	c.rewrites = c.rewrites[:0]
	return c
}

// Release gives the checker back; it must not be used afterwards.
func (c *Checker) Release() {
	c.data = nil
	c.problems = nil
	pool.Put(c)
}

// Problems returns the problems reported so far, the first 50 of them;
// Err counts the rest.
func (c *Checker) Problems() []string { return c.problems }

// Failed reports whether the input stopped being JSON.
func (c *Checker) Failed() bool { return c.failed }

// Offset returns the position of the next byte; with Span it captures the
// raw text of a value.
func (c *Checker) Offset() int {
	c.skipSpace()
	return c.pos
}

// Span returns the raw input from start to the current position.
func (c *Checker) Span(start int) []byte { return c.data[start:c.pos] }

func (c *Checker) skipSpace() {
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

// Kind skips white space and returns the kind of the next value, without
// consuming it. After a syntax error it returns Invalid.
func (c *Checker) Kind() Kind {
	c.mute = false
	if c.failed {
		return Invalid
	}
	c.skipSpace()
	if c.pos >= len(c.data) {
		c.syntax("unexpected end of input")
		return Invalid
	}
	switch b := c.data[c.pos]; {
	case b == 'n':
		return Null
	case b == 't' || b == 'f':
		return Bool
	case b == '"':
		return String
	case b == '[':
		return Array
	case b == '{':
		return Object
	case b == '-' || (b >= '0' && b <= '9'):
		return Number
	}
	c.syntax(fmt.Sprintf("unexpected character %q", c.data[c.pos]))
	return Invalid
}

// syntax records a syntax error and stops the scan. Problems found before
// it are dropped: input that is not JSON gets that one problem, whatever
// judges it.
func (c *Checker) syntax(msg string) {
	if c.failed {
		return
	}
	c.failed = true
	c.problems, c.more = append(c.problems[:0], "/: "+words.Syntax(c.pos, msg)), 0
	c.pos = len(c.data)
}

// counted reports whether the next problem is listed; past
// limits.MaxProblems it is only counted, so that a hostile input costs no
// more than a scan.
func (c *Checker) counted() bool {
	if len(c.problems) < limits.MaxProblems {
		return true
	}
	c.more++
	return false
}

// Report records a problem at the current path. Arguments are formatted as
// by fmt.Sprintf, with byte slices and numbers, which come from the input,
// cut to a short quote.
func (c *Checker) Report(format string, args ...any) {
	c.Problem(fmt.Sprintf(format, echoArgs(args)...))
}

// Problem records a problem, worded by one of the Msg functions, at the
// current path.
func (c *Checker) Problem(msg string) { c.add(len(c.path), msg) }

// reportParent records a problem at the path of the enclosing container.
func (c *Checker) reportParent(msg string) { c.add(max(len(c.path)-1, 0), msg) }

// add records a problem at the path of the first n path elements. A
// problem the same as the one before it is dropped: a value can break two
// rules that say the same thing (minimum 0 and the range of uint64).
func (c *Checker) add(n int, msg string) {
	if c.failed || c.mute {
		return
	}
	p := c.pathString(n) + ": " + msg
	if k := len(c.problems); k > 0 && c.problems[k-1] == p {
		return
	}
	if c.counted() {
		c.problems = append(c.problems, p)
	}
}

// echoArgs cuts the input a problem quotes, byte slices and numbers, to
// limits.MaxEcho bytes.
func echoArgs(args []any) []any {
	for i, a := range args {
		switch v := a.(type) {
		case []byte:
			args[i] = echoBytes(v)
		case Num:
			args[i] = echoBytes(v.raw)
		}
	}
	return args
}

// echoBytes is words.Echo for bytes, copying no more than it keeps.
func echoBytes(b []byte) string {
	return words.Echo(string(b[:min(len(b), limits.MaxEcho+1)]))
}

func (c *Checker) pathString(n int) string {
	if n == 0 {
		return "/"
	}
	var b strings.Builder
	for _, s := range c.path[:n] {
		b.WriteByte('/')
		if s.array {
			b.WriteString(strconv.Itoa(s.count - 1))
			continue
		}
		key := c.data[s.keyStart:s.keyEnd]
		if s.keyEsc {
			key = unescape(nil, key)
		}
		for _, r := range echoBytes(key) {
			switch r {
			case '~':
				b.WriteString("~0")
			case '/':
				b.WriteString("~1")
			default:
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// WrongType reports that the value is not of the wanted type, for example
// "a string", and skips it.
func (c *Checker) WrongType(want string) {
	k := c.Kind()
	if k == Invalid {
		return
	}
	c.Problem(words.Type(want, k.String()))
	c.Skip()
}

// Skip consumes the next value, checking only that it is JSON.
func (c *Checker) Skip() {
	switch c.Kind() {
	case Null:
		c.literal("null")
	case Bool:
		c.Bool()
	case Number:
		c.Num()
	case String:
		c.scanString()
	case Array, Object:
		c.Enter()
		for c.Next() {
			c.Skip()
		}
	}
}

func (c *Checker) literal(lit string) {
	if len(c.data)-c.pos >= len(lit) && string(c.data[c.pos:c.pos+len(lit)]) == lit {
		c.pos += len(lit)
		return
	}
	c.syntax("invalid literal, want " + lit)
}

// Bool consumes a boolean and returns it.
func (c *Checker) Bool() bool {
	c.skipSpace()
	if c.pos < len(c.data) && c.data[c.pos] == 't' {
		c.literal("true")
		return true
	}
	c.literal("false")
	return false
}

// Null consumes null.
func (c *Checker) Null() {
	c.skipSpace()
	c.literal("null")
}

// Str consumes a string and returns its value, unescaped, with invalid
// UTF-8 replaced as encoding/json replaces it. The result is valid until
// the next call of Str.
func (c *Checker) Str() []byte {
	c.skipSpace()
	start, end, esc := c.scanString()
	if c.failed {
		return nil
	}
	raw := c.data[start:end]
	c.escaped = esc
	if !esc {
		return raw
	}
	c.sbuf = unescape(c.sbuf[:0], raw)
	return c.sbuf
}

// CheckFormat reports the string s, just read with Str, when it is not in
// the format: date-time, date, email, uri, uuid, or the range of a number
// written as a string.
func (c *Checker) CheckFormat(format string, s []byte) {
	if !Format(format, s) {
		c.Problem(words.Format(format, string(s)))
	}
}

// CheckGoTime reports the string s, just read with Str, when it was
// written with escapes that Go's time.Time decoding refuses; TimePattern
// and the format date-time say the rest of what it takes.
func (c *Checker) CheckGoTime(s []byte) {
	if !c.escaped {
		return
	}
	if !timePattern().Match(s) || !isDateTime(string(s)) {
		return // the pattern and the format said so
	}
	if raw := c.lastRaw(s); !isGoTime(raw) {
		c.Problem(words.GoTime(string(raw)))
	}
}

// timePattern is compiled on first use, not in every mod process's start.
var timePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(words.TimePattern) })

// lastRaw returns the raw contents of the string just read, whose
// unescaped value is s.
func (c *Checker) lastRaw(s []byte) []byte {
	end := c.pos - 1
	start := end
	for start > 0 {
		start--
		if c.data[start] == '"' && !escapedAt(c.data, start) {
			return c.data[start+1 : end]
		}
	}
	return s
}

// escapedAt reports whether the byte at i is escaped by backslashes.
func escapedAt(data []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// Range reports the number n when the Go type behind format (int64,
// uint64, float) cannot hold it.
func (c *Checker) Range(format string, n Num) {
	if !inRange(format, n) {
		c.Problem(words.Range(format, n.String(), n.neg))
	}
}

// scanString consumes a string and returns the offsets of its contents and
// whether it needs unescaping (escapes or invalid UTF-8).
func (c *Checker) scanString() (start, end int, esc bool) {
	c.pos++ // opening quote
	start = c.pos
	high := false
	for c.pos < len(c.data) {
		// Fast path: plain bytes need no attention.
		d := c.data[c.pos:]
		i := 0
		for i < len(d) && plain[d[i]] {
			i++
		}
		c.pos += i
		if c.pos >= len(c.data) {
			break
		}
		b := c.data[c.pos]
		switch {
		case b == '"':
			end = c.pos
			c.pos++
			if high && !esc && !utf8.Valid(c.data[start:end]) {
				esc = true
			}
			return start, end, esc
		case b == '\\':
			esc = true
			if c.pos+1 >= len(c.data) {
				c.syntax("unterminated string")
				return
			}
			switch c.data[c.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				c.pos += 2
			case 'u':
				if c.pos+6 > len(c.data) || !isHex4(c.data[c.pos+2:c.pos+6]) {
					c.syntax("invalid \\u escape")
					return
				}
				c.pos += 6
			default:
				c.syntax("invalid escape in string")
				return
			}
		case b < 0x20:
			c.syntax("control character in string")
			return
		default:
			if b >= 0x80 {
				high = true
			}
			c.pos++
		}
	}
	c.syntax("unterminated string")
	return
}

func isHex4(b []byte) bool {
	for _, x := range b[:4] {
		if !(x >= '0' && x <= '9' || x >= 'a' && x <= 'f' || x >= 'A' && x <= 'F') {
			return false
		}
	}
	return true
}

func hex4(b []byte) rune {
	var r rune
	for _, x := range b[:4] {
		r <<= 4
		switch {
		case x >= '0' && x <= '9':
			r |= rune(x - '0')
		case x >= 'a' && x <= 'f':
			r |= rune(x - 'a' + 10)
		default:
			r |= rune(x - 'A' + 10)
		}
	}
	return r
}

// unescape appends the value of the syntactically valid string contents raw
// to dst, as encoding/json decodes it.
func unescape(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		b := raw[i]
		if b == '\\' {
			switch raw[i+1] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(raw[i+2:])
				i += 6
				if utf16.IsSurrogate(r) {
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if r2 := utf16.DecodeRune(r, hex4(raw[i+2:])); r2 != utf8.RuneError {
							dst = utf8.AppendRune(dst, r2)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				dst = utf8.AppendRune(dst, r)
				continue
			default:
				dst = append(dst, raw[i+1])
			}
			i += 2
			continue
		}
		if b < utf8.RuneSelf {
			dst = append(dst, b)
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && size == 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
		} else {
			dst = append(dst, raw[i:i+size]...)
		}
		i += size
	}
	return dst
}

// Num consumes a number and returns it; one beyond a 64-bit float is
// reported. A number written with more than limits.MaxNumberChars
// characters is reported and returned as 0, and the problems the checks
// that follow find in it are dropped: nothing computes with its digits.
func (c *Checker) Num() Num { return c.number(true) }

// number consumes a number. double reports one beyond a 64-bit float,
// which an integer leaves to its own range.
func (c *Checker) number(double bool) Num {
	c.skipSpace()
	start := c.pos
	i := c.pos
	d := c.data
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		c.pos = i
		c.syntax("invalid number")
		return Num{zero: true}
	}
	if i < len(d) && d[i] == '.' {
		i++
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == j {
			c.pos = i
			c.syntax("invalid number")
			return Num{zero: true}
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == j {
			c.pos = i
			c.syntax("invalid number")
			return Num{zero: true}
		}
	}
	c.pos = i
	if i-start > limits.MaxNumberChars {
		// Judged no further: a check of its digits costs without bound.
		c.Problem(words.NumberLength(i - start))
		c.mute = true
		return parseNum([]byte("0"))
	}
	n := parseNum(d[start:i])
	if double && n.point > 308 && !inRange("double", n) {
		// No JSON number beyond a 64-bit float is accepted anywhere:
		// nothing decodes it, and judging it costs without bound.
		c.Problem(words.Range("double", n.String(), n.neg))
	}
	return n
}

// Int consumes a number that must be an integer. A non-integer is
// reported; an integer written with a fraction or exponent (5.0, 1e2) is
// decoded as the plain integer. An integer beyond a 64-bit float is left to
// the integer's own range (its format or bounds), which names the bound
// that matters.
func (c *Checker) Int() Num {
	c.skipSpace()
	start := c.pos
	n := c.number(false)
	if c.failed || c.mute {
		return n
	}
	if !n.IsInt() {
		c.Problem(words.NotInteger(n.String()))
		return n
	}
	if !n.plainInt() {
		c.rewrites = append(c.rewrites, rewrite{start: start, end: c.pos, num: n})
	}
	return n
}

// Enter consumes the opening bracket or brace of the next array or object;
// iterate its members with Next.
func (c *Checker) Enter() {
	c.skipSpace()
	c.path = append(c.path, segment{array: c.data[c.pos] == '['})
	c.pos++
	if len(c.path) > maxDepth {
		c.syntax("nested deeper than " + strconv.Itoa(maxDepth) + " levels")
	}
}

// maxDepth is how deeply arrays and objects may nest, as in encoding/json.
const maxDepth = 10000

// Next advances to the next member of the array or object being iterated
// and reports whether there is one. For objects it consumes the key, which
// Key returns, and the colon. At the end it consumes the closing bracket.
func (c *Checker) Next() bool {
	c.mute = false
	top := &c.path[len(c.path)-1]
	if c.failed {
		c.path = c.path[:len(c.path)-1]
		return false
	}
	c.skipSpace()
	if c.pos >= len(c.data) {
		c.syntax("unexpected end of input")
		c.path = c.path[:len(c.path)-1]
		return false
	}
	closer := byte('}')
	if top.array {
		closer = ']'
	}
	b := c.data[c.pos]
	if b == closer && top.count == 0 {
		c.pos++
		c.path = c.path[:len(c.path)-1]
		return false
	}
	if top.count > 0 {
		if b == closer {
			c.pos++
			c.path = c.path[:len(c.path)-1]
			return false
		}
		if b != ',' {
			c.syntax("want ',' or '" + string(closer) + "'")
			c.path = c.path[:len(c.path)-1]
			return false
		}
		c.pos++
		c.skipSpace()
		if c.pos >= len(c.data) {
			c.syntax("unexpected end of input")
			c.path = c.path[:len(c.path)-1]
			return false
		}
	}
	top.count++
	if top.array {
		return true
	}
	if c.pos >= len(c.data) || c.data[c.pos] != '"' {
		c.syntax("want a string key")
		c.path = c.path[:len(c.path)-1]
		return false
	}
	start, end, esc := c.scanString()
	if c.failed {
		c.path = c.path[:len(c.path)-1]
		return false
	}
	top = &c.path[len(c.path)-1]
	top.keyStart, top.keyEnd, top.keyEsc = start, end, esc
	c.skipSpace()
	if c.pos >= len(c.data) || c.data[c.pos] != ':' {
		c.syntax("want ':' after object key")
		c.path = c.path[:len(c.path)-1]
		return false
	}
	c.pos++
	return true
}

// Key returns the current object key, unescaped. It is valid until the
// next call of Next.
func (c *Checker) Key() []byte {
	top := &c.path[len(c.path)-1]
	raw := c.data[top.keyStart:top.keyEnd]
	if !top.keyEsc {
		return raw
	}
	c.kbuf = unescape(c.kbuf[:0], raw)
	return c.kbuf
}

// Index returns the index of the current array item.
func (c *Checker) Index() int { return c.path[len(c.path)-1].count - 1 }

// Unknown reports the current key as an unknown property of a closed
// object, naming the allowed ones, and skips its value.
func (c *Checker) Unknown(allowed string) {
	c.reportParent(words.Unknown(string(c.Key()), allowed))
	c.Skip()
}

// Duplicate reports the current key as given twice and skips its value.
func (c *Checker) Duplicate() {
	c.reportParent(words.Duplicate(string(c.Key())))
	c.Skip()
}

// Missing reports a required property that the current object lacks.
func (c *Checker) Missing(name string) {
	c.Problem(words.Missing(name))
}

// End checks that nothing but white space follows the top-level value.
func (c *Checker) End() {
	if c.failed {
		return
	}
	c.skipSpace()
	if c.pos != len(c.data) {
		c.syntax("unexpected data after the top-level value")
	}
}

// Err returns the problems as an *sdk.InputError, or nil when there are
// none.
func (c *Checker) Err() error {
	if len(c.problems) == 0 {
		return nil
	}
	p, more := c.problems, c.more
	c.problems, c.more = nil, 0
	return &sdk.InputError{Problems: p, More: more}
}

// Fill reports whether the input is valid and may be decoded by generated
// code, and if so rewinds to the start for it.
func (c *Checker) Fill() bool {
	if len(c.problems) > 0 || c.failed {
		return false
	}
	c.pos = 0
	c.path = c.path[:0]
	return true
}

// StrCopy is Str for values a decoder may keep: it aliases the input when
// nothing was unescaped and copies otherwise.
func (c *Checker) StrCopy() []byte {
	c.skipSpace()
	start, end, esc := c.scanString()
	if c.failed {
		return nil
	}
	if !esc {
		return c.data[start:end:end]
	}
	return unescape(nil, c.data[start:end])
}

// Unmarshal decodes the value that starts at start and ends at the current
// position into v with encoding/json, recording a failure as a problem.
// Integers the check pass saw written as 5.0 or 1e2 are written plainly
// first.
func (c *Checker) Unmarshal(start int, v any) {
	data := c.data[start:c.pos]
	var out []byte
	last := start
	for _, r := range c.rewrites {
		if r.start < start || r.end > c.pos {
			continue
		}
		out = append(out, c.data[last:r.start]...)
		out = r.num.appendInt(out)
		last = r.end
	}
	if out != nil {
		data = append(out, c.data[last:c.pos]...)
	}
	if err := json.Unmarshal(data, v); err != nil {
		c.problems = append(c.problems, c.pathString(len(c.path))+": "+words.Decode(err))
	}
}

// Default decodes a field's default, the JSON text lit, into v: generated
// decoders call it for a property the input leaves out.
func (c *Checker) Default(v any, lit string) {
	if err := json.Unmarshal([]byte(lit), v); err != nil {
		c.problems = append(c.problems, c.pathString(len(c.path))+": default "+lit+" "+words.Decode(err))
	}
}

// DecodeFailed records a decoding failure at the current path: the error
// of a type's own UnmarshalJSON or UnmarshalText. An error of
// encoding/json, strconv or time, wrapped or not, is worded in JSON terms;
// any other error is the type's own words.
func (c *Checker) DecodeFailed(err error) {
	if c.counted() {
		msg, ok := words.Typed(err)
		if !ok {
			msg = err.Error()
		}
		c.problems = append(c.problems, c.pathString(len(c.path))+": "+limits.Cut(msg, limits.MaxProblemBytes))
	}
}

// KeySet remembers the keys of one map object, to report keys given twice.
// The zero value is ready to use.
type KeySet struct {
	m map[string]struct{}
}

// Seen reports whether key was added before, and adds it.
func (s *KeySet) Seen(key []byte) bool {
	if s.m == nil {
		s.m = map[string]struct{}{}
	}
	if _, ok := s.m[string(key)]; ok {
		return true
	}
	s.m[string(key)] = struct{}{}
	return false
}

// Float consumes a number the check pass accepted and returns it as a
// float of the given size, 32 or 64.
func (c *Checker) Float(bits int) float64 {
	n := c.Num()
	f, _ := strconv.ParseFloat(string(n.raw), bits)
	return f
}

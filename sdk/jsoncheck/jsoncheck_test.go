package jsoncheck

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

func TestNumCmp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"1", "1", 0},
		{"1.0", "1", 0},
		{"10", "1e1", 0},
		{"0.1", "1e-1", 0},
		{"-0", "0", 0},
		{"0.000", "-0e5", 0},
		{"2", "10", -1},
		{"-2", "-10", 1},
		{"9223372036854775808", "9223372036854775807", 1},
		{"18446744073709551615", "18446744073709551616", -1},
		{"1e400", "1e399", 1},
		{"-1e-400", "0", -1},
		{"123.456", "123.4560001", -1},
		{"5E+2", "500", 0},
	}
	for _, tt := range tests {
		a := parseNum([]byte(tt.a))
		if got := a.Cmp(tt.b); got != tt.want {
			t.Errorf("Cmp(%s, %s): got %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNumInt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		isInt   bool
		i64     int64
		appendI string
	}{
		{"5", true, 5, "5"},
		{"5.0", true, 5, "5"},
		{"-1.50e1", true, -15, "-15"},
		{"1e2", true, 100, "100"},
		{"-9223372036854775808", true, -9223372036854775808, "-9223372036854775808"},
		{"0.0", true, 0, "0"},
		{"2.5", false, 0, ""},
		{"12500e-2", true, 125, "125"},
	}
	for _, tt := range tests {
		n := parseNum([]byte(tt.in))
		if got := n.IsInt(); got != tt.isInt {
			t.Errorf("IsInt(%s): got %v, want %v", tt.in, got, tt.isInt)
			continue
		}
		if !tt.isInt {
			continue
		}
		if got := n.Int64(); got != tt.i64 {
			t.Errorf("Int64(%s): got %d, want %d", tt.in, got, tt.i64)
		}
		if got := string(n.appendInt(nil)); got != tt.appendI {
			t.Errorf("appendInt(%s): got %s, want %s", tt.in, got, tt.appendI)
		}
	}
}

func TestMultipleOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n, m string
		want bool
	}{
		{"10", "5", true},
		{"7", "5", false},
		{"1.5", "0.5", true},
		{"0.7", "0.5", false},
		{"0", "3", true},
		{"1e200000", "5", true},
		{"1e200000", "3", false},
		{"0.0075", "0.0025", true},
		{"1e-200000", "1", false},
	}
	for _, tt := range tests {
		if got := parseNum([]byte(tt.n)).MultipleOf(tt.m); got != tt.want {
			t.Errorf("MultipleOf(%s, %s): got %v, want %v", tt.n, tt.m, got, tt.want)
		}
	}
}

func TestStr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string
		n    int
	}{
		{`"plain"`, "plain", 5},
		{`"a\nb\u00e9"`, "a\nbé", 4},
		{`"\ud83d\ude00"`, "😀", 1},
		{`"\ud83d x"`, "\ufffd x", 3},
		{"\"\xff\"", "\ufffd", 1},
		{`"é"`, "é", 1},
	}
	for _, tt := range tests {
		c := New([]byte(tt.in))
		got := c.Str()
		if string(got) != tt.want || Len(got) != tt.n {
			t.Errorf("Str(%s): got %q (%d code points), want %q (%d)", tt.in, got, Len(got), tt.want, tt.n)
		}
		c.Release()
	}
}

func TestSyntax(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string
	}{
		{``, "/: invalid JSON at byte 0: unexpected end of input"},
		{`{"a":}`, `/: invalid JSON at byte 5: unexpected character '}'`},
		{`[1,]`, `/: invalid JSON at byte 3: unexpected character ']'`},
		{`"abc`, "/: invalid JSON at byte 4: unterminated string"},
		{`01`, "/: invalid JSON at byte 1: unexpected data after the top-level value"},
		{`{"a" 1}`, "/: invalid JSON at byte 5: want ':' after object key"},
		{`tru`, "/: invalid JSON at byte 0: invalid literal, want true"},
		{`"\x"`, "/: invalid JSON at byte 1: invalid escape in string"},
	}
	for _, tt := range tests {
		c := New([]byte(tt.in))
		c.Skip()
		c.End()
		got := slices.Clone(c.Problems())
		c.Release()
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%q: got %q, want [%q]", tt.in, got, tt.want)
		}
	}
}

func TestPathEscaping(t *testing.T) {
	t.Parallel()
	c := New([]byte(`{"a/b":{"c~d":[0,{"e\"f":true}]}}`))
	defer c.Release()
	c.Enter()
	c.Next()
	c.Enter()
	c.Next()
	c.Enter()
	c.Next()
	c.Skip()
	c.Next()
	c.Enter()
	c.Next()
	c.Report("here")
	if got, want := c.Problems(), []string{`/a~1b/c~0d/1/e"f: here`}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestErr(t *testing.T) {
	t.Parallel()
	c := New([]byte(`"x"`))
	defer c.Release()
	c.Report("a")
	c.Report("b %d", 2)
	err := c.Err()
	var ie *sdk.InputError
	if !errors.As(err, &ie) || !slices.Equal(ie.Problems, []string{"/: a", "/: b 2"}) {
		t.Errorf("got %v, want an *sdk.InputError with /: a and /: b 2", err)
	}
}

func TestEqual(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`{"a":1,"b":[true,null]}`, `{"b":[true,null],"a":1e0}`, true},
		{`"a"`, `"\u0061"`, true},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`null`, `false`, false},
	}
	for _, tt := range tests {
		if got := equal([]byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("equal(%s, %s): got %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestMaxDepth(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	c := New([]byte(deep))
	defer c.Release()
	c.Skip()
	c.End()
	if got, want := c.Problems(), []string{"/: invalid JSON at byte 10001: nested deeper than 10000 levels"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSyntaxAlone: problems found before a syntax error are dropped, so
// every judge of the input says the same one thing.
func TestSyntaxAlone(t *testing.T) {
	t.Parallel()
	c := New([]byte(`{"a":5,"b":`))
	defer c.Release()
	c.Enter()
	for c.Next() {
		c.WrongType("a string")
	}
	c.End()
	if got, want := c.Problems(), []string{"/: invalid JSON at byte 11: unexpected end of input"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHugeNumbers: a number beyond a 64-bit float is refused wherever it
// is, even in a skipped value, and costs no more than its text.
func TestHugeNumbers(t *testing.T) {
	t.Parallel()
	c := New([]byte(`{"a":[1e10000000,-1e309,1e308,1e-10000000]}`))
	defer c.Release()
	c.Skip()
	c.End()
	want := []string{
		"/a/0: must be at most 1.7976931348623157e308, got 1e10000000",
		"/a/1: must be at least -1.7976931348623157e308, got -1e309",
	}
	if got := c.Problems(); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestUnmarshalRewritesIntegers(t *testing.T) {
	t.Parallel()
	c := New([]byte(`{"m": [1.0, 3e0]}`))
	defer c.Release()
	c.Enter()
	c.Next()
	start := c.Offset()
	c.Enter()
	for c.Next() {
		c.Int()
	}
	var m [2]int
	c.Unmarshal(start, &m)
	if len(c.Problems()) > 0 || m != [2]int{1, 3} {
		t.Errorf("got %v and problems %q, want [1 3]", m, c.Problems())
	}
}

func TestDecodeProblemWords(t *testing.T) {
	t.Parallel()
	var n int8
	err := json.Unmarshal([]byte(`300`), &n)
	if got, want := words.Decode(err), "must be an integer in range, got number 300"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

package jsoncheck

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

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
	// characters: its one problem is in Parse's list, and a generated
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
func Parse(data []byte) (*Node, []Located) {
	c := &Checker{data: data, path: make([]segment, 0, 16)}
	var found []Located
	root := c.parseNode(&found, true)
	c.End()
	if c.failed {
		return nil, []Located{{At: 0, Line: c.problems[len(c.problems)-1]}}
	}
	return root, found
}

// parseNode parses one value. keep is false for values a generated
// validator skips (a key given twice): they are scanned, not kept.
func (c *Checker) parseNode(found *[]Located, keep bool) *Node {
	k := c.Kind()
	n := &Node{Start: c.pos}
	switch k {
	case Null:
		c.Null()
	case Bool:
		n.Value = c.Bool()
	case Number:
		num := c.Num()
		n.Long = c.mute
		if len(c.problems) > 0 && !c.failed {
			*found = append(*found, Located{At: n.Start, Line: c.problems[0]})
			c.problems = c.problems[:0] // so that the next is not taken for a repeat
		}
		n.Value = json.Number(clamp(num))
	case String:
		n.Value = string(c.Str())
		n.Escaped = c.escaped
	case Array:
		items := []any{}
		c.Enter()
		for c.Next() {
			item := c.parseNode(found, keep)
			n.Items = append(n.Items, item)
			items = append(items, item.Value)
		}
		n.Value = items
	case Object:
		m := map[string]any{}
		c.Enter()
		for c.Next() {
			key := string(c.Key())
			at := c.path[len(c.path)-1].keyStart - 1
			if _, dup := m[key]; dup {
				if keep {
					n.Dups = append(n.Dups, Dup{Key: key, At: at})
				}
				c.parseNode(found, false)
				continue
			}
			member := c.parseNode(found, keep)
			m[key] = member.Value
			n.Keys = append(n.Keys, key)
			n.KeyAt = append(n.KeyAt, at)
			n.Members = append(n.Members, member)
		}
		n.Value = m
	}
	n.End = c.pos
	n.Raw = c.data[n.Start:n.End]
	return n
}

// clamp bounds a number for validators that compute with it exactly: an
// exponent never reaches them as written.
func clamp(n Num) string {
	switch {
	case n.zero:
		return "0"
	case n.point > 400 && !n.IsInt() && n.neg:
		return "-1" + strings.Repeat("0", 400) + ".5"
	case n.point > 400 && !n.IsInt():
		return "1" + strings.Repeat("0", 400) + ".5"
	case n.point > 400 && n.neg:
		return "-1e400"
	case n.point > 400:
		return "1e400"
	case n.point < -400 && n.neg:
		return "-1e-400"
	case n.point < -400:
		return "1e-400"
	case !bytes.ContainsAny(n.raw, "eE"):
		return n.String()
	}
	b := make([]byte, 0, n.n+16)
	if n.neg {
		b = append(b, '-')
	}
	b = append(b, "0."...)
	for i := 0; i < n.n; i++ {
		b = append(b, n.sig(i))
	}
	b = append(b, 'e')
	return string(strconv.AppendInt(b, int64(n.point), 10))
}

// KindOf returns the kind of a decoded value.
func KindOf(v any) Kind {
	switch v.(type) {
	case nil:
		return Null
	case bool:
		return Bool
	case json.Number, float64:
		return Number
	case string:
		return String
	case []any:
		return Array
	case map[string]any:
		return Object
	}
	return Invalid
}

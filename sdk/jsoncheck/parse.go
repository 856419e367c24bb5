package jsoncheck

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/modkit/modkit/internal/jsontree"
)

// The host's JSON Schema fallback reads an input as generated validators
// do through internal/jsontree, which this package fills: none of it is
// for generated code or mod authors.
func init() {
	jsontree.Scanner.Parse = parse
	jsontree.Scanner.FormatValue = formatValue
	jsontree.Scanner.IsGoTime = isGoTime
	jsontree.Scanner.IsDateTime = isDateTime
}

// parse is jsontree.Parse: data parsed with the scanner of generated
// validators.
func parse(data []byte) (*jsontree.Node, []jsontree.Located) {
	c := &Checker{data: data, path: make([]segment, 0, 16)}
	var found []jsontree.Located
	root := c.parseNode(&found, true)
	c.End()
	if c.failed {
		return nil, []jsontree.Located{{At: 0, Line: c.problems[len(c.problems)-1]}}
	}
	return root, found
}

// parseNode parses one value. keep is false for values a generated
// validator skips (a key given twice): they are scanned, not kept.
func (c *Checker) parseNode(found *[]jsontree.Located, keep bool) *jsontree.Node {
	k := c.Kind()
	n := &jsontree.Node{Start: c.pos}
	switch k {
	case Null:
		c.Null()
	case Bool:
		n.Value = c.Bool()
	case Number:
		num := c.Num()
		n.Long = c.mute
		if len(c.problems) > 0 && !c.failed {
			*found = append(*found, jsontree.Located{At: n.Start, Line: c.problems[0]})
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
					n.Dups = append(n.Dups, jsontree.Dup{Key: key, At: at})
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

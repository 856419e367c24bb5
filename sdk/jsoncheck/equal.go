package jsoncheck

// value is a parsed JSON value, for the rare checks that compare values:
// enum of non-strings and uniqueItems.
type value struct {
	kind Kind
	b    bool
	num  Num
	str  string
	arr  []value
	obj  map[string]value
}

func parseValue(c *Checker) value {
	switch k := c.Kind(); k {
	case Null:
		c.Null()
		return value{kind: Null}
	case Bool:
		return value{kind: Bool, b: c.Bool()}
	case Number:
		return value{kind: Number, num: c.Num()}
	case String:
		return value{kind: String, str: string(c.Str())}
	case Array:
		v := value{kind: Array}
		c.Enter()
		for c.Next() {
			v.arr = append(v.arr, parseValue(c))
		}
		return v
	case Object:
		v := value{kind: Object, obj: map[string]value{}}
		c.Enter()
		for c.Next() {
			key := string(c.Key())
			v.obj[key] = parseValue(c) // the last of duplicate keys wins, as in encoding/json
		}
		return v
	}
	return value{}
}

func parseRaw(raw []byte) (value, bool) {
	c := &Checker{data: raw}
	v := parseValue(c)
	c.End()
	return v, !c.failed
}

func equalValues(a, b *value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Bool:
		return a.b == b.b
	case Number:
		return cmpNum(&a.num, &b.num) == 0
	case String:
		return a.str == b.str
	case Array:
		if len(a.arr) != len(b.arr) {
			return false
		}
		for i := range a.arr {
			if !equalValues(&a.arr[i], &b.arr[i]) {
				return false
			}
		}
		return true
	case Object:
		if len(a.obj) != len(b.obj) {
			return false
		}
		for k, va := range a.obj {
			vb, ok := b.obj[k]
			if !ok || !equalValues(&va, &vb) {
				return false
			}
		}
		return true
	}
	return true
}

// equal reports whether two JSON texts hold equal values as JSON Schema
// compares them: numbers by value, objects regardless of key order.
// Invalid JSON equals nothing.
func equal(a, b []byte) bool {
	va, ok := parseRaw(a)
	if !ok {
		return false
	}
	vb, ok := parseRaw(b)
	if !ok {
		return false
	}
	return equalValues(&va, &vb)
}

// OneOf reports whether the JSON text raw equals one of the JSON texts
// lits.
func OneOf(raw []byte, lits ...string) bool {
	v, ok := parseRaw(raw)
	if !ok {
		return false
	}
	for _, lit := range lits {
		w, ok := parseRaw([]byte(lit))
		if ok && equalValues(&v, &w) {
			return true
		}
	}
	return false
}

// Repeated returns the indexes of the first two equal items among the JSON
// texts items, for uniqueItems.
func Repeated(items [][]byte) (i, j int, found bool) {
	vals := make([]value, len(items))
	for k, raw := range items {
		vals[k], _ = parseRaw(raw)
	}
	for i = range vals {
		for j = i + 1; j < len(vals); j++ {
			if equalValues(&vals[i], &vals[j]) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

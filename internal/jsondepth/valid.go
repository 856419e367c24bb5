package jsondepth

import "bytes"

// MaxValidDepth is the deepest nesting json.Valid accepts.
const MaxValidDepth = 10000

// Valid reports whether data is one JSON value, as json.Valid does (which
// also refuses a value nested deeper than MaxValidDepth), and returns its
// depth, as Of does: one pass, without allocating, where a reader would
// otherwise make two.
func Valid(data []byte) (depth int, ok bool) {
	var objects [MaxValidDepth/64 + 1]uint64 // bit d: level d is an object
	d, deepest, i := 0, 0, 0
	for {
		// A value starts at i, perhaps after spaces.
		i = space(data, i)
		if i == len(data) {
			return 0, false
		}
		if c := data[i]; c == '{' || c == '[' {
			d++
			if d > MaxValidDepth {
				return 0, false
			}
			deepest = max(deepest, d)
			bit := uint64(1) << (d % 64)
			if c == '{' {
				objects[d/64] |= bit
			} else {
				objects[d/64] &^= bit
			}
			i = space(data, i+1)
			switch {
			case i < len(data) && data[i] == c+2: // '}' or ']': empty
				d--
				i++
			case c == '{':
				if i, ok = member(data, i); !ok {
					return 0, false
				}
				continue
			default:
				continue
			}
		} else if i, ok = scalar(data, i); !ok {
			return 0, false
		}
		// A value ended at i: close what it ends, up to the next value.
		for {
			i = space(data, i)
			if d == 0 {
				return deepest, i == len(data)
			}
			if i == len(data) {
				return 0, false
			}
			object := objects[d/64]>>(d%64)&1 == 1
			if data[i] == ',' {
				i++
				if object {
					if i, ok = member(data, space(data, i)); !ok {
						return 0, false
					}
				}
				break
			}
			if object && data[i] != '}' || !object && data[i] != ']' {
				return 0, false
			}
			d--
			i++
		}
	}
}

// space returns the index of the first byte from i that is not JSON's
// white space.
func space(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t') {
		i++
	}
	return i
}

// member reads an object member's name and colon at i and returns the
// index after them.
func member(data []byte, i int) (int, bool) {
	if i == len(data) || data[i] != '"' {
		return i, false
	}
	i, ok := str(data, i)
	if !ok {
		return i, false
	}
	i = space(data, i)
	if i == len(data) || data[i] != ':' {
		return i, false
	}
	return i + 1, true
}

// scalar reads a string, number or literal at i and returns the index
// after it.
func scalar(data []byte, i int) (int, bool) {
	switch c := data[i]; {
	case c == '"':
		return str(data, i)
	case c == '-' || '0' <= c && c <= '9':
		return number(data, i)
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(data[i:], []byte(lit)) {
			return i + len(lit), true
		}
	}
	return i, false
}

// str reads the string that starts at i. As json.Valid, it accepts any
// byte but the control characters, UTF-8 or not.
func str(data []byte, i int) (int, bool) {
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			i++
			if i == len(data) {
				return i, false
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(data) {
					return i, false
				}
				for _, h := range data[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return i, false
					}
				}
				i += 4
			default:
				return i, false
			}
		}
	}
	return i, false
}

// number reads the number that starts at i.
func number(data []byte, i int) (int, bool) {
	digits := func(i int) (int, bool) {
		j := i
		for j < len(data) && '0' <= data[j] && data[j] <= '9' {
			j++
		}
		return j, j > i
	}
	if data[i] == '-' {
		i++
	}
	switch {
	case i == len(data):
		return i, false
	case data[i] == '0':
		i++
	default:
		var ok bool
		if i, ok = digits(i); !ok {
			return i, false
		}
	}
	if i < len(data) && data[i] == '.' {
		var ok bool
		if i, ok = digits(i + 1); !ok {
			return i, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		var ok bool
		if i, ok = digits(i); !ok {
			return i, false
		}
	}
	return i, true
}

// Package jsondepth measures how deeply a JSON text nests, without decoding
// it: readers use it to refuse a message too deep before a decoder
// recurses into it.
package jsondepth

// Of returns how deeply data nests objects and arrays, counting brackets
// outside strings. For data that is not valid JSON the count means
// nothing, but it is computed all the same, in one pass without
// allocating.
func Of(data []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

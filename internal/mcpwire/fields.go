package mcpwire

import (
	"bytes"
	"encoding/json"
)

// Fields reads the top-level members of a JSON object in order,
// without decoding their values: the transports look at a few fields of
// every message, and decoding it whole each time cost more than the rest of
// their work. Its input is valid JSON, or it may stop early: any malformed
// member ends the reading with ok false.
type Fields struct {
	data []byte
	pos  int
}

// NewFields returns a reader of the object data, or false when data
// does not start with '{'.
func NewFields(data []byte) (*Fields, bool) {
	r := &Fields{data: data}
	r.space()
	if r.pos >= len(data) || data[r.pos] != '{' {
		return nil, false
	}
	r.pos++
	return r, true
}

// Next returns the next member's key, decoded, positioned at its value;
// ok is false at the end of the object or when it is malformed.
func (r *Fields) Next() (key string, ok bool) {
	r.space()
	if r.pos < len(r.data) && r.data[r.pos] == ',' {
		r.pos++
		r.space()
	}
	if r.pos >= len(r.data) || r.data[r.pos] != '"' {
		return "", false
	}
	raw, ok := r.str()
	if !ok {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		key = KnownKey(raw[1 : len(raw)-1])
	} else if key, ok = unquote(raw); !ok {
		return "", false
	}
	r.space()
	if r.pos >= len(r.data) || r.data[r.pos] != ':' {
		return "", false
	}
	r.pos++
	r.space()
	return key, true
}

// unquote decodes the JSON string raw. Its own variable, not Next's
// result, escapes to json.Unmarshal: a key with no escape, the common
// case, then costs no allocation.
func unquote(raw []byte) (string, bool) {
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err == nil
}

// Value returns the raw value of the member Next returned, and moves past
// it.
func (r *Fields) Value() (json.RawMessage, bool) {
	if r.pos >= len(r.data) {
		return nil, false
	}
	start := r.pos
	switch r.data[r.pos] {
	case '"':
		raw, ok := r.str()
		return raw, ok
	case '{', '[':
		depth := 0
		for r.pos < len(r.data) {
			switch r.data[r.pos] {
			case '"':
				if _, ok := r.str(); !ok {
					return nil, false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					r.pos++
					return r.data[start:r.pos], true
				}
			}
			r.pos++
		}
		return nil, false
	default:
		for r.pos < len(r.data) {
			switch r.data[r.pos] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				if r.pos == start {
					return nil, false
				}
				return r.data[start:r.pos], true
			}
			r.pos++
		}
		return nil, false
	}
}

// str moves past the string at r.pos and returns it with its quotes.
func (r *Fields) str() ([]byte, bool) {
	start := r.pos
	for r.pos++; r.pos < len(r.data); r.pos++ {
		switch r.data[r.pos] {
		case '\\':
			r.pos++
		case '"':
			r.pos++
			return r.data[start:r.pos], true
		}
	}
	return nil, false
}

func (r *Fields) space() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\r', '\n':
			r.pos++
		default:
			return
		}
	}
}

// KnownKey returns b as a string, without allocating for the member names
// every MCP request carries, nor for its jsonrpc version and the methods
// most read: each request reads several.
func KnownKey(b []byte) string {
	switch string(b) {
	case "2.0":
		return "2.0"
	case "tools/call":
		return "tools/call"
	case "tasks/get":
		return "tasks/get"
	case "jsonrpc":
		return "jsonrpc"
	case "id":
		return "id"
	case "method":
		return "method"
	case "params":
		return "params"
	case "_meta":
		return "_meta"
	case "name":
		return "name"
	case "arguments":
		return "arguments"
	case "taskId":
		return "taskId"
	case "extensions":
		return "extensions"
	case "io.modelcontextprotocol/protocolVersion":
		return "io.modelcontextprotocol/protocolVersion"
	case "io.modelcontextprotocol/clientCapabilities":
		return "io.modelcontextprotocol/clientCapabilities"
	case tasksExtension:
		return tasksExtension
	}
	return string(b)
}

// tasksExtension is the name of MCP's tasks extension, a key of the
// capabilities every task request carries.
const tasksExtension = "io.modelcontextprotocol/tasks"

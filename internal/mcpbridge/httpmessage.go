package mcpbridge

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/modkit/modkit/internal/mcpwire"
)

// readMessage reads a posted JSON-RPC message in one pass over its
// members, as json.Unmarshal into an httpMessage would, without
// reflection: every request is read this way before it is routed, and the
// direct path and the tasks code take the params it keeps from here rather
// than decoding the body again. Its input is valid JSON (json.Valid). It
// reports false for any shape it leaves to json.Unmarshal: a member named
// like one it reads but in other case or twice, a jsonrpc or method that is
// not a string without escapes, params or _meta that are not objects.
func readMessage(body []byte) (m httpMessage, ok bool) {
	r, ok := mcpwire.NewFields(body)
	if !ok {
		return m, false
	}
	var seen [4]bool
	others := false
	for {
		key, more := r.Next()
		if !more {
			break
		}
		v, ok := r.Value()
		if !ok {
			return m, false
		}
		i := -1
		switch key {
		case "jsonrpc":
			i = 0
			m.JSONRPC, ok = plainString(v)
		case "id":
			i = 1
			m.ID = v
		case "method":
			i = 2
			m.Method, ok = plainString(v)
		case "params":
			i = 3
			m.params = v
			ok = m.readParams(v)
		default:
			others = true
			ok = !foldsTo(key, "jsonrpc", "id", "method", "params")
		}
		if !ok || i >= 0 && seen[i] {
			return m, false
		}
		if i >= 0 {
			seen[i] = true
		}
	}
	m.plain = !others && seen == [4]bool{true, true, true, true}
	return m, true
}

// readParams reads the members of params the handler routes by: the
// requestId of a cancellation, the keys of _meta.
func (m *httpMessage) readParams(params json.RawMessage) bool {
	r, ok := mcpwire.NewFields(params)
	if !ok {
		return false
	}
	var seenID, seenMeta bool
	for {
		key, more := r.Next()
		if !more {
			return true
		}
		v, ok := r.Value()
		if !ok {
			return false
		}
		switch {
		case key == "requestId" && !seenID:
			seenID = true
			m.Params.RequestID = v
		case key == "_meta" && !seenMeta:
			seenMeta = true
			if m.Params.Meta, ok = readMeta(v); !ok {
				return false
			}
		case foldsTo(key, "requestId", "_meta"):
			return false
		}
	}
}

// readMeta reads the members of a _meta object, by key.
func readMeta(meta json.RawMessage) (map[string]json.RawMessage, bool) {
	r, ok := mcpwire.NewFields(meta)
	if !ok {
		return nil, false
	}
	out := make(map[string]json.RawMessage, 4)
	for {
		key, more := r.Next()
		if !more {
			return out, true
		}
		v, ok := r.Value()
		if _, dup := out[key]; !ok || dup || !utf8.ValidString(key) {
			return nil, false
		}
		out[key] = v
	}
}

// plainString returns the JSON string v without its quotes, when it has
// no escapes and is UTF-8 (json.Unmarshal replaces what is not).
func plainString(v json.RawMessage) (string, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return "", false
	}
	return mcpwire.KnownKey(v[1 : len(v)-1]), true
}

// foldsTo reports whether key names one of names in another case, which
// json.Unmarshal would take for it.
func foldsTo(key string, names ...string) bool {
	for _, n := range names {
		if key != n && strings.EqualFold(key, n) {
			return true
		}
	}
	return false
}

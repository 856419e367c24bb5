package mcpwire

import (
	"bytes"
	"encoding/json"
)

// Kind is what a message is, as MessageID tells it.
type Kind int

// The kinds of message.
const (
	KindOther    Kind = iota // a notification, or not a message
	KindResponse             // a response to a request of the client's
	KindRequest              // a request: of the server's, to the client, when the server writes it
)

// ResponseID reports whether data is one response message, and its id.
func ResponseID(data []byte) (string, bool) {
	if id, _, kind := MessageID(data); kind == KindResponse {
		return id, true
	}
	return "", false
}

// MessageID returns the kind of message data is and, for a response or a
// request, its id, canonical and as written. It reads only the top-level
// keys up to the first of "result" or "error" (not the possibly large
// result), and past "method" only while no id was seen.
func MessageID(data []byte) (id string, raw json.RawMessage, kind Kind) {
	r, ok := NewFields(data)
	if !ok {
		return "", nil, KindOther
	}
	method := false
	for {
		key, more := r.Next()
		if !more {
			return "", nil, KindOther
		}
		switch key {
		case "result", "error":
			if id == "" || method {
				return "", nil, KindOther
			}
			return id, raw, KindResponse
		case "method":
			if id != "" {
				return id, raw, KindRequest
			}
			method = true
		}
		v, ok := r.Value()
		if !ok {
			return "", nil, KindOther
		}
		if key == "id" {
			// The SDK may reuse data once written: keep a copy.
			if id, raw = IDKey(v), bytes.Clone(v); id != "" && method {
				return id, raw, KindRequest
			}
		}
	}
}

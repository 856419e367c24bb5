package mcpwire

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/modkit/modkit/internal/limits"
)

// MaxIDBytes is the longest id a request may have, as written: a response
// repeats it.
const MaxIDBytes = limits.MaxEcho

// IDKey returns a JSON-RPC id in a canonical form, or "" for none or an
// invalid one: numbers as integers, truncated as the SDK reads them.
func IDKey(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return strconv.Quote(s)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return ""
	}
	return strconv.FormatInt(int64(f), 10)
}

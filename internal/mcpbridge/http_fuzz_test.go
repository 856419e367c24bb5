package mcpbridge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modkit/modkit/internal/mcpwire"
)

// FuzzCheckBody checks that any posted body is either accepted as JSON-RPC
// or answered with a parse error (-32700) or an invalid request (-32600),
// that what is accepted is JSON, and that the parse error answers exactly
// the bodies that are not JSON.
func FuzzCheckBody(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`[]`, `{}`, `42`, `hello`, ``, `{"jsonrpc":"2.0","id":{},"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"x"`, `{"a":1}}`, `{"a":"\x01"}`, `{"a":[1,{"b":-0.5e+3}]} `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, code, msg := checkBody(body)
		if empty := len(bytes.TrimLeft(body, " \t\r\n")) == 0; !empty && (code == mcpwire.CodeParseError) == json.Valid(body) {
			t.Fatalf("%q: code %d, json.Valid %t", body, code, json.Valid(body))
		}
		switch code {
		case 0:
			if !json.Valid(body) {
				t.Fatalf("accepted %q, which is not JSON", body)
			}
			if m.Method != "" && m.JSONRPC != "2.0" {
				t.Fatalf("accepted %q with jsonrpc %q", body, m.JSONRPC)
			}
		case mcpwire.CodeParseError, mcpwire.CodeInvalidRequest:
			if msg == "" {
				t.Fatalf("%q: code %d without a message", body, code)
			}
		default:
			t.Fatalf("%q: code %d", body, code)
		}
	})
}

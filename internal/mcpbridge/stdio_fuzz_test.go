package mcpbridge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzStdioCheck checks that every line the stdio wrapper hands the SDK is
// one the SDK decodes: any other would end the session.
func FuzzStdioCheck(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":2.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,[2,{"a":[]}]]}`,
		`{"JSONRPC":"2.0","id":1,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`hello`, `"x"`, `{}`, `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || bytes.IndexByte(line, '\n') >= 0 {
			return
		}
		in := &inputFilter{p: newPending(), initialized: true}
		code, _, _ := in.check(line)
		if code != 0 {
			return
		}
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			t.Errorf("%s: passed to the SDK, which refuses it: %v", line, err)
		}
	})
}

// TestMethodName: a method reads as json.Unmarshal reads it.
func TestMethodName(t *testing.T) {
	for _, raw := range []string{`"tools/call"`, `"ping"`, `""`, `"a\"b"`, `"\u0041"`, "\"\xff\"", `1`, `null`, `{}`} {
		var want string
		wantErr := json.Unmarshal([]byte(raw), &want)
		got, ok := methodName(json.RawMessage(raw))
		if ok != (wantErr == nil) || got != want {
			t.Errorf("methodName(%s) = %q, %v; want %q, %v", raw, got, ok, want, wantErr == nil)
		}
	}
}

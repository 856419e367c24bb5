package mcpbridge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var fieldSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	`{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"}]\\"{"}]}}`,
	`{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}`,
	` { "id" : 2.5 , "method" : "ping" , "jsonrpc" : "2.0" } `,
	`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
	`{"\u0069d":7,"method":"x","id":8,"id":9}`,
	`{"method":"sampling/createMessage","id":"s1","params":{"a":[1,[2,{"b":[]}]]}}`,
	`{"id":true,"result":null}`, `{}`, `{"a":-1.5e3,"b":[],"c":{}}`,
}

// oldFields is how check read a message before topFields: decoded whole
// into a map.
func oldFields(line []byte) (messageFields, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil || m == nil {
		return messageFields{}, false
	}
	return messageFields{jsonrpc: m["jsonrpc"], id: m["id"], method: m["method"], params: m["params"], error: m["error"]}, true
}

// FuzzTopFields checks that topFields reads a valid JSON object's members
// as decoding it into a map does.
func FuzzTopFields(f *testing.F) {
	for _, s := range fieldSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if !json.Valid(line) || bytes.TrimSpace(line)[0] != '{' {
			return
		}
		want, wantOK := oldFields(line)
		got, ok := topFields(line)
		if ok != wantOK {
			t.Fatalf("%s: read %v, want %v", line, ok, wantOK)
		}
		for _, f := range []struct {
			name      string
			got, want json.RawMessage
		}{{"jsonrpc", got.jsonrpc, want.jsonrpc}, {"id", got.id, want.id}, {"method", got.method, want.method},
			{"params", got.params, want.params}, {"error", got.error, want.error}} {
			if !bytes.Equal(f.got, f.want) || (f.got == nil) != (f.want == nil) {
				t.Errorf("%s: %s: got %q, want %q", line, f.name, f.got, f.want)
			}
		}
	})
}

func BenchmarkCheckLine(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"echo","arguments":{"message":"hello","tags":["a","b","c"],"count":3}}}`)
	in := &inputFilter{p: newPending(), initialized: true}
	b.ReportAllocs()
	for b.Loop() {
		if code, msg, _ := in.check(line); code != 0 {
			b.Fatal(msg)
		}
		in.p.replied("42")
	}
}

// decodedSessionless is sessionlessRequest by decoding alone.
func decodedSessionless(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	return json.Unmarshal(params, &p) == nil && p.Meta[mcp.MetaKeyProtocolVersion] != nil
}

// FuzzSessionlessMembers checks that sessionlessMembers, when it answers,
// answers as decoding the params does.
func FuzzSessionlessMembers(f *testing.F) {
	for _, s := range []string{
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"echo"}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":null}}`,
		`{"_meta":{"io.modelcontextprotocol\/protocolVersion":1}}`,
		`{"_meta":null}`, `{"_meta":5}`, `{"_META":{"io.modelcontextprotocol/protocolVersion":"x"}}`,
		`{"_meta":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}`,
		`{"name":"a","arguments":{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}}`,
		`{}`, `[]`, `"x"`, `{"_meta":{"a":{"io.modelcontextprotocol/protocolVersion":1}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		if !json.Valid(params) {
			return
		}
		want := decodedSessionless(params)
		if got, ok := sessionlessMembers(params); ok && got != want {
			t.Fatalf("%s: sessionless %v, want %v", params, got, want)
		}
		if got := sessionlessRequest(params); got != want {
			t.Fatalf("%s: sessionlessRequest %v, want %v", params, got, want)
		}
	})
}

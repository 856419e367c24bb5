package mcpbridge

import (
	"bytes"
	"encoding/json"
	"maps"
	"testing"
)

// messageSeeds are bodies readMessage reads, and bodies it leaves to
// json.Unmarshal.
var messageSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,"}"]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x"}}`,
	`{"jsonrpc":"2.0","id":"a","result":{}}`,
	` { "id" : 7 , "method" : "ping" , "jsonrpc" : "2.0" } `,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"a":1,"a":2}}}`,
	`{"jsonrpc":"2.0","id":1,"Method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","method":"n"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m\u0073"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":null}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"RequestID":1}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":[]}}`,
	`{"jsonrpc":2,"id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"k\u00e9":"v"}}}`,
}

// TestReadMessage: readMessage reads the common shapes, and leaves to
// json.Unmarshal those it does not read exactly as json.Unmarshal would.
func TestReadMessage(t *testing.T) {
	for i, want := range []bool{true, true, true, true, false, false, false, false, false, false, false, false, true} {
		body := []byte(messageSeeds[i])
		m, ok := readMessage(body)
		if ok != want {
			t.Errorf("%s: read %v, want %v", body, ok, want)
			continue
		}
		if ok {
			checkSameMessage(t, body, m)
		}
	}
	m, _ := readMessage([]byte(messageSeeds[0]))
	if !m.plain || string(m.Params.Meta["io.modelcontextprotocol/protocolVersion"]) != `"2026-07-28"` {
		t.Errorf("got plain %v, _meta %q; want a plain request with the protocol version in _meta", m.plain, m.Params.Meta)
	}
}

// FuzzReadMessage checks readMessage against json.Unmarshal: whatever it
// reads, it reads as json.Unmarshal does.
func FuzzReadMessage(f *testing.F) {
	for _, s := range messageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if !json.Valid(body) {
			return
		}
		if m, ok := readMessage(body); ok {
			checkSameMessage(t, body, m)
		}
	})
}

// checkSameMessage fails t unless m, which readMessage read of body, is
// what json.Unmarshal reads of it.
func checkSameMessage(t *testing.T, body []byte, m httpMessage) {
	t.Helper()
	var want httpMessage
	if err := json.Unmarshal(body, &want); err != nil {
		t.Fatalf("%q: read, but json.Unmarshal fails: %v", body, err)
	}
	var members map[string]json.RawMessage
	json.Unmarshal(body, &members)
	plain := len(members) == 4 && members["jsonrpc"] != nil && members["id"] != nil && members["method"] != nil && members["params"] != nil
	switch {
	case m.JSONRPC != want.JSONRPC || m.Method != want.Method || !bytes.Equal(m.ID, want.ID):
		t.Fatalf("%q: got %q %s %q, want %q %s %q", body, m.JSONRPC, m.ID, m.Method, want.JSONRPC, want.ID, want.Method)
	case !bytes.Equal(m.Params.RequestID, want.Params.RequestID):
		t.Fatalf("%q: got requestId %s, want %s", body, m.Params.RequestID, want.Params.RequestID)
	case !maps.EqualFunc(m.Params.Meta, want.Params.Meta, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) || (m.Params.Meta == nil) != (want.Params.Meta == nil):
		t.Fatalf("%q: got _meta %q, want %q", body, m.Params.Meta, want.Params.Meta)
	case !bytes.Equal(m.params, members["params"]):
		t.Fatalf("%q: got params %s, want %s", body, m.params, members["params"])
	case m.plain != plain:
		t.Fatalf("%q: got plain %v, want %v", body, m.plain, plain)
	}
}

// FuzzDeclaresExtension checks declaresExtension against json.Unmarshal:
// whatever it reads, it reads as declaresTasks's decoding does.
func FuzzDeclaresExtension(f *testing.F) {
	for _, s := range []string{
		`{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, `{"extensions":{"other":{}}}`, `{}`,
		`{"extensions":null}`, `{"Extensions":{"io.modelcontextprotocol/tasks":{}}}`, `{"extensions":[]}`,
		`{"elicitation":{"form":{}},"extensions":{"a":1,"io.modelcontextprotocol/tasks":{"x":[1]}}}`,
		`{"extensions":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, caps []byte) {
		if !json.Valid(caps) {
			return
		}
		declared, ok := declaresExtension(caps, TasksExtension)
		if !ok {
			return
		}
		var c struct {
			Extensions map[string]json.RawMessage `json:"extensions"`
		}
		err := json.Unmarshal(caps, &c)
		_, want := c.Extensions[TasksExtension]
		if err != nil || declared != want {
			t.Fatalf("%q: got %v, want %v (json.Unmarshal: %v)", caps, declared, want, err)
		}
	})
}

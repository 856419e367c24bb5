package mcpbridge

import (
	"bytes"
	"encoding/json"
	"testing"
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

// oldMessageID is messageID before the fieldReader: encoding/json's
// tokenizer.
func oldMessageID(data []byte) (id string, raw json.RawMessage, kind int) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return "", nil, kindOther
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return "", nil, kindOther
	}
	method := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return "", nil, kindOther
		}
		switch key {
		case "result", "error":
			if id == "" || method {
				return "", nil, kindOther
			}
			return id, raw, kindResponse
		case "method":
			if id != "" {
				return id, raw, kindRequest
			}
			method = true
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return "", nil, kindOther
		}
		if key == "id" {
			if id, raw = idKey(v), v; id != "" && method {
				return id, raw, kindRequest
			}
		}
	}
	return "", nil, kindOther
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

// FuzzMessageID checks that messageID classifies a valid JSON message as
// encoding/json's tokenizer did.
func FuzzMessageID(f *testing.F) {
	for _, s := range fieldSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		wantID, wantRaw, wantKind := oldMessageID(data)
		id, raw, kind := messageID(data)
		if id != wantID || !bytes.Equal(raw, wantRaw) || kind != wantKind {
			t.Errorf("%s: got %q %s %d, want %q %s %d", data, id, raw, kind, wantID, wantRaw, wantKind)
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

func BenchmarkMessageID(b *testing.B) {
	data := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"{\"message\":\"hello\",\"tags\":[\"a\",\"b\",\"c\"],\"count\":3}"}]}}` + "\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, kind := messageID(data); kind != kindResponse {
			b.Fatal("not a response")
		}
	}
}

// BenchmarkMessageIDTokenizer is BenchmarkMessageID with the tokenizer
// messageID used before, for comparison.
func BenchmarkMessageIDTokenizer(b *testing.B) {
	data := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"{\"message\":\"hello\",\"tags\":[\"a\",\"b\",\"c\"],\"count\":3}"}]}}` + "\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, kind := oldMessageID(data); kind != kindResponse {
			b.Fatal("not a response")
		}
	}
}

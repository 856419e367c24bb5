package mcpwire

import (
	"bytes"
	"encoding/json"
	"testing"
)

// messageSeeds are messages of each kind MessageID tells apart, ids of
// each form, and keys escaped, repeated or out of order.
var messageSeeds = []string{
	`{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"}]\\"{"}]}}`,
	`{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}`,
	`{"method":"sampling/createMessage","id":"s1","params":{"a":[1,[2,{"b":[]}]]}}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`,
	` { "id" : 2.5 , "result" : {} , "jsonrpc" : "2.0" } `,
	`{"\u0069d":7,"method":"x","id":8,"id":9}`, `{"id":null,"result":{}}`, `{"id":true,"result":null}`, `[]`,
}

// oldMessageID is MessageID before Fields: encoding/json's
// tokenizer.
func oldMessageID(data []byte) (id string, raw json.RawMessage, kind Kind) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return "", nil, KindOther
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return "", nil, KindOther
	}
	method := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
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
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return "", nil, KindOther
		}
		if key == "id" {
			if id, raw = IDKey(v), v; id != "" && method {
				return id, raw, KindRequest
			}
		}
	}
	return "", nil, KindOther
}

// FuzzMessageID checks that MessageID classifies a valid JSON message as
// encoding/json's tokenizer did.
func FuzzMessageID(f *testing.F) {
	for _, s := range messageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		wantID, wantRaw, wantKind := oldMessageID(data)
		id, raw, kind := MessageID(data)
		if id != wantID || !bytes.Equal(raw, wantRaw) || kind != wantKind {
			t.Errorf("%s: got %q %s %d, want %q %s %d", data, id, raw, kind, wantID, wantRaw, wantKind)
		}
	})
}

func BenchmarkMessageID(b *testing.B) {
	data := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"{\"message\":\"hello\",\"tags\":[\"a\",\"b\",\"c\"],\"count\":3}"}]}}` + "\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, kind := MessageID(data); kind != KindResponse {
			b.Fatal("not a response")
		}
	}
}

// BenchmarkMessageIDTokenizer is BenchmarkMessageID with the tokenizer
// MessageID used before, for comparison.
func BenchmarkMessageIDTokenizer(b *testing.B) {
	data := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"{\"message\":\"hello\",\"tags\":[\"a\",\"b\",\"c\"],\"count\":3}"}]}}` + "\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, kind := oldMessageID(data); kind != KindResponse {
			b.Fatal("not a response")
		}
	}
}

package jsondepth

import (
	"encoding/json"
	"testing"
)

var benchLine = []byte(`{"method":"tools/call","params":{"name":"echo","arguments":{"message":"The quick brown fox jumps over the lazy dog, then naps in the sun.","tags":["alpha","beta","gamma","delta"],"count":42,"loud":false,"author":{"name":"Ada Lovelace","email":"ada@example.com"}}},"jsonrpc":"2.0","id":1}`)

func BenchmarkValid(b *testing.B) {
	b.Run("jsondepth", func(b *testing.B) {
		for b.Loop() {
			Valid(benchLine)
		}
	})
	b.Run("json+Of", func(b *testing.B) {
		for b.Loop() {
			_ = json.Valid(benchLine) && Of(benchLine) > 0
		}
	})
}

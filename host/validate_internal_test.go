package host

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/manifest"
)

func BenchmarkCheckInput(b *testing.B) {
	b.Run("quick", func(b *testing.B) { benchCheck(b, "testdata/mods/quick/mod.manifest.json", `{"text":"hi"}`) })
	b.Run("echo", func(b *testing.B) {
		benchCheck(b, "../bench/internal/echomod/mod.manifest.json", `{"message":"The quick brown fox jumps over the lazy dog, then naps in the sun.","tags":["alpha","beta","gamma","delta"],"count":42,"loud":false,"author":{"name":"Ada Lovelace","email":"ada@example.com"}}`)
	})
}

func benchCheck(b *testing.B, path, in string) {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	m, err := manifest.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	s, err := schemacheck.ToolInput("quick", m.Tools[0])
	if err != nil {
		b.Fatal(err)
	}
	input := json.RawMessage(in)
	b.ReportAllocs()
	for b.Loop() {
		if p := checkInput(s, input); p != nil {
			b.Fatal(p)
		}
	}
}

package host

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/modkit/modkit/manifest"
)

func BenchmarkCheckInput(b *testing.B) {
	data, err := os.ReadFile("testdata/mods/quick/mod.manifest.json")
	if err != nil {
		b.Fatal(err)
	}
	m, err := manifest.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	s, err := compileSchema("quick", m.Tools[0])
	if err != nil {
		b.Fatal(err)
	}
	input := json.RawMessage(`{"text":"hi"}`)
	b.ReportAllocs()
	for b.Loop() {
		if p := checkInput(s, input); p != nil {
			b.Fatal(p)
		}
	}
}

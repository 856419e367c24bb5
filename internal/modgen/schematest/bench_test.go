package schematest

import (
	"bytes"
	"encoding/json"
	"testing"
)

// searchInput is a realistic tool input for the Search type.
var searchInput = []byte(`{
  "query": "func (c *Checker) Report",
  "paths": ["sdk/jsoncheck", "internal/modgen/codegen", "cmd/modgen"],
  "limit": 50,
  "regex": false,
  "since": "2026-11-01T09:30:00Z",
  "kinds": ["code", "doc"],
  "options": {"caseSensitive": true, "context": 2, "exclude": ["testdata", "vendor"]}
}`)

// BenchmarkDecode compares, on the same bytes into the same type, plain
// encoding/json decoding, the generated validator plus decoding, and
// santhosh-tekuri/jsonschema validation plus decoding.
func BenchmarkDecode(b *testing.B) {
	b.Run("encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var s Search
			if err := json.Unmarshal(searchInput, &s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decode[Search](decodeSearch, searchInput); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsonschema", func(b *testing.B) {
		ref := compiled(b, "Search")
		b.ReportAllocs()
		for b.Loop() {
			dec := json.NewDecoder(bytes.NewReader(searchInput))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				b.Fatal(err)
			}
			if err := ref.Validate(v); err != nil {
				b.Fatal(err)
			}
			var s Search
			if err := json.Unmarshal(searchInput, &s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkValidate measures the generated validator alone.
func BenchmarkValidate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if p := validate("Search", searchInput); len(p) != 0 {
			b.Fatal(p)
		}
	}
}

// BenchmarkLongNumber measures both judges on a 1 MB number where an
// integer belongs: each scans it once and says it is too long.
func BenchmarkLongNumber(b *testing.B) {
	data := []byte(hugeFraction)
	b.Run("generated", func(b *testing.B) {
		for b.Loop() {
			if p := validate("Search", data); len(p) == 0 {
				b.Fatal("no problems")
			}
		}
	})
	b.Run("host", func(b *testing.B) {
		s := fallbackOf("Search")
		for b.Loop() {
			if p := s.Check(data); len(p) == 0 {
				b.Fatal("no problems")
			}
		}
	})
}

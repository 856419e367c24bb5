// Package onevoice tests that a mod's inputs read the same whichever side
// judges them: the mod's generated validator, or the host's JSON Schema
// fallback on the mod's manifest (then the mod's decoding). Mods' tests
// call [Check]; it exists for tests only.
package onevoice

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// Inputs are inputs with problems of many kinds for any tool.
var Inputs = []string{
	`{}`, `[]`, `null`, `{"package":5,"zz":1}`, `{"query":5,"text":7,"limit":"x"}`,
	`{"query":"DefineMod","limit":1e10000000}`, `{"query":"","limit":0,"case":"odd","path":5}`,
	`{"query":"a","query":"b","limit":2.5}`, `{"text":"x","text":"y","zz":{"a":1,"a":2}}`, `{"text":`,
	`{"package":"x","depth":-1,"details":{"x":1},"include":[1,"a"]}`, `{"query":"a","limit":1e309}`,
	`{"query":"a","text":1e400,"limit":-1e400,"depth":1e400,"times":1e400}`,
	`{"query":"a","limit":0.` + strings.Repeat("1", 1001) + `,"text":` + strings.Repeat("2", 1001) + `}`,
}

// Check fails t for every tool of g and input for which the two sides
// give different problems.
func Check(t testing.TB, g *sdk.Generated, inputs []string) {
	t.Helper()
	m, err := manifest.Decode(g.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range m.Tools {
		fallback, err := schemacheck.Compile("mem://"+tool.Name, tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		decode := g.Inputs[tool.Name]
		for _, in := range inputs {
			_, err := decode([]byte(in))
			want := problemsOf(err)
			got := fallback.Check([]byte(in))
			if len(got) == 0 {
				_, err := decode([]byte(in))
				got = problemsOf(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s:\nhost says      %q\ngenerated says %q", tool.Name, in, got, want)
			}
		}
	}
}

func problemsOf(err error) []string {
	var ie *sdk.InputError
	if errors.As(err, &ie) {
		return ie.Problems
	}
	if err != nil {
		return []string{err.Error()}
	}
	return nil
}

package host

import (
	"fmt"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/manifest"
)

// compileSchema compiles a tool's input schema, once per tool.
func compileSchema(modID string, t manifest.Tool) (*schemacheck.Schema, error) {
	s, err := schemacheck.Compile("modkit:///"+modID+"/"+t.Name+"/input.json", t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("mod %s: tool %s: input schema: %v", modID, t.Name, err)
	}
	return s, nil
}

// checkInput checks input against the tool's schema. It returns every
// problem as "/json/path: what is wrong", in the words of the generated
// validators, the first limits.MaxProblems of them and a count of the rest.
func checkInput(s *schemacheck.Schema, input []byte) []string {
	return limits.Problems(s.Check(input), 0)
}

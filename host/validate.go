package host

import (
	"encoding/json"

	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/internal/words"
)

// checkInput checks input against the tool's schema. It returns every
// problem as "/json/path: what is wrong", in the words of the generated
// validators, the first limits.MaxProblems of them and a count of the rest.
func checkInput(s *schemacheck.Schema, input []byte) []string {
	return words.Problems(s.Check(input), 0)
}

// inputOrEmpty returns input, or {} when there is none: a tool called
// without input is called with no arguments.
func inputOrEmpty(input json.RawMessage) json.RawMessage {
	if len(input) == 0 {
		return json.RawMessage("{}")
	}
	return input
}

package callflow

import (
	"fmt"
	"sync"

	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// ActionCheck returns the check of the client actions a call of tool t
// of mod m emitted (Call.CheckActions): the failure naming the first that
// is wrong, or "". The mod checked them already with its generated code,
// in the same order and words; the pipeline holds a mod to its manifest
// all the same: each kind must be one the tool lists, and its params must
// match the kind's schema, compiled once, on the first actions.
func ActionCheck(m *manifest.Manifest, t manifest.Tool) func(actions []sdk.ClientAction) string {
	schemas := sync.OnceValues(func() (map[string]*schemacheck.Schema, error) {
		schemas := make(map[string]*schemacheck.Schema, len(t.ClientActions))
		for _, k := range m.ToolClientActions(t) {
			s, err := schemacheck.Compile("modkit:///"+m.ID+"/client-actions/"+k.Kind+"/params.json", k.ParamsSchema)
			if err != nil {
				return nil, fmt.Errorf("mod %s: client action kind %s: params schema: %v", m.ID, k.Kind, err)
			}
			schemas[k.Kind] = s
		}
		return schemas, nil
	})
	return func(actions []sdk.ClientAction) string {
		if len(actions) == 0 {
			return ""
		}
		schemas, err := schemas()
		if err != nil {
			return err.Error()
		}
		for i, a := range actions {
			s, ok := schemas[a.Kind]
			if !ok {
				return words.BadAction(t.Name, i, a.Kind, words.UndeclaredAction(t.ClientActions))
			}
			if problems := s.Check(a.Params); len(problems) > 0 {
				return words.BadAction(t.Name, i, a.Kind, words.InvalidParams(words.Problems(problems, 0)))
			}
		}
		return ""
	}
}

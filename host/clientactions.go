package host

import (
	"fmt"
	"sync"

	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// compileParamsSchemas returns what compiles, once, the params schemas of
// the kinds of client action tool t of mod m lists, by kind.
func compileParamsSchemas(m *manifest.Manifest, t manifest.Tool) func() (map[string]*schemacheck.Schema, error) {
	return sync.OnceValues(func() (map[string]*schemacheck.Schema, error) {
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
}

// checkActions returns the failure of a call of t that emitted actions,
// naming the first that is wrong, or "". The mod checked them already with
// its generated code, in the same order and words; the host holds a mod to
// its manifest all the same: each kind must be one the tool lists, and its
// params must match the kind's schema.
func (t *tool) checkActions(actions []sdk.ClientAction) string {
	if len(actions) == 0 {
		return ""
	}
	schemas, err := t.paramsSchemas()
	if err != nil {
		return err.Error()
	}
	for i, a := range actions {
		s, ok := schemas[a.Kind]
		if !ok {
			return words.BadAction(t.man.Name, i, a.Kind, words.UndeclaredAction(t.man.ClientActions))
		}
		if problems := s.Check(a.Params); len(problems) > 0 {
			return words.BadAction(t.man.Name, i, a.Kind, words.InvalidParams(words.Problems(problems, 0)))
		}
	}
	return ""
}

package answercheck

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/schemacheck"
)

// FormSchema is the requested schema in a form question's params, nil
// when there is none.
func FormSchema(params json.RawMessage) json.RawMessage {
	var p struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	json.Unmarshal(params, &p)
	return p.RequestedSchema
}

// Check returns what is wrong with answer a to the question of kind
// named key (a form's with its requested schema), in the words the host
// uses for a tool's input: JSON paths into the answer, as the MCP result
// carries it.
func Check(kind modapi.QuestionKind, key string, schema, a json.RawMessage) []string {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(a, &obj); err != nil || obj == nil {
		return []string{"/: must be an object"}
	}
	switch kind {
	case modapi.AskForm, modapi.AskURL:
		var action string
		if json.Unmarshal(obj["action"], &action) != nil || !slices.Contains([]string{"accept", "decline", "cancel"}, action) {
			return []string{`/action: must be one of "accept", "decline", "cancel"`}
		}
		if kind != modapi.AskForm || action != "accept" || len(schema) == 0 {
			return nil
		}
		content := obj["content"]
		if len(content) == 0 || string(content) == "null" {
			content = json.RawMessage("{}")
		}
		s, err := schemacheck.Compile("modkit:///questions/"+key+".json", schema)
		if err != nil {
			return []string{"/: the form's schema does not compile: " + err.Error()}
		}
		var out []string
		for _, p := range s.Check(content) {
			if strings.HasPrefix(p, "/:") {
				p = p[1:]
			}
			out = append(out, "/content"+p)
		}
		return out
	case modapi.AskSample:
		if _, ok := obj["content"]; !ok {
			return []string{"/content: is required"}
		}
	case modapi.AskRoots:
		var roots []struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(obj["roots"], &roots) != nil {
			return []string{"/roots: must be an array of roots"}
		}
	}
	return nil
}

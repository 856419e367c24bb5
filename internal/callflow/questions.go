package callflow

import (
	"encoding/json"

	"github.com/modkit/modkit/internal/modapi"
)

// Answer answers the questions one run of a handler asked together, in
// order, through answer, and returns the answers the next run is given:
// given, cut at each question's position, with its answer. A question
// answer defers (deferred true) is collected in later and left
// unanswered; an error ends the answering. A handler that asks more than
// modapi.MaxQuestions fails its call: offset is the position of its first
// question among the call's (1 after an approval question).
func Answer(tool string, offset int, given []modapi.Answered, asked []modapi.Question,
	answer func(q modapi.Question) (a json.RawMessage, deferred bool, err error),
) (next []modapi.Answered, later []modapi.Question, err error) {
	for _, q := range asked {
		if q.Position+offset >= modapi.MaxQuestions {
			return nil, nil, &TooManyError{Tool: tool}
		}
		a, deferred, err := answer(q)
		if err != nil {
			return nil, nil, err
		}
		if deferred {
			later = append(later, q)
			continue
		}
		if q.Position < len(given) {
			given = given[:q.Position]
		}
		given = append(given, modapi.Answered{Question: q, Answer: a})
	}
	return given, later, nil
}

// TooManyError is Answer's error for a handler that asked more than
// modapi.MaxQuestions questions.
type TooManyError struct{ Tool string }

func (e *TooManyError) Error() string { return modapi.TooManyQuestions(e.Tool) }

// Shown is what a question's params show a person: a form's or a URL
// question's message, a form's requested schema, a URL question's URL.
// Params that are not such an object show nothing.
func Shown(params json.RawMessage) (message string, schema json.RawMessage, url string) {
	var p struct {
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
		URL             string          `json:"url"`
	}
	if json.Unmarshal(params, &p) != nil {
		return "", nil, ""
	}
	return p.Message, p.RequestedSchema, p.URL
}

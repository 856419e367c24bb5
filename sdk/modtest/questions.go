package modtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/modkit/modkit/internal/answercheck"
	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// Question is a question a handler asked (ToolContext.Ask, AskURL, Sample,
// Roots), as Outcome.Questions records it.
type Question struct {
	// Kind is "form", "url", "sample" or "roots".
	Kind string
	// Key names the question among the call's.
	Key string
	// Message is what a person reads (form and URL questions).
	Message string
	// Schema is a form's requested schema.
	Schema json.RawMessage
	// URL is what a URL question asks the person to visit.
	URL string
	// Params are the question as the MCP request's params.
	Params json.RawMessage
}

// answerFrom answers a run's questions from opts.Answers by key, records
// them in seen, and returns the answers the next run is given, or why the
// handler of name fails.
func answerFrom(opts *Options, asked []modapi.Question, answers []modapi.Answered, seen *[]Question, name string) ([]modapi.Answered, string) {
	n := 0 // the questions answered, or refused
	next, _, err := callflow.Answer(name, 0, answers, asked, func(q modapi.Question) (json.RawMessage, bool, error) {
		n++
		mq := question(q)
		*seen = append(*seen, mq)
		v, ok := opts.Answers[q.Key]
		if !ok {
			return nil, false, fmt.Errorf("modtest: no answer in Options.Answers for question %q (%s: %s)", q.Key, q.Kind, mq.Message)
		}
		a, err := encodeAnswer(q.Kind, v)
		if err != nil {
			return nil, false, fmt.Errorf("modtest: Options.Answers[%q]: %v", q.Key, err)
		}
		if problems := answercheck.Check(q.Kind, q.Key, answercheck.FormSchema(q.Params), a); len(problems) > 0 {
			return nil, false, fmt.Errorf("modtest: Options.Answers[%q] is refused: %s", q.Key, words.BadAnswer(problems))
		}
		return a, false, nil
	})
	var tooMany *callflow.TooManyError
	if errors.As(err, &tooMany) {
		*seen = append(*seen, question(asked[n])) // the question over the limit
	}
	if err != nil {
		return nil, err.Error()
	}
	return next, ""
}

func question(q modapi.Question) Question {
	out := Question{Kind: string(q.Kind), Key: q.Key, Params: q.Params}
	out.Message, out.Schema, out.URL = callflow.Shown(q.Params)
	return out
}

// encodeAnswer is a scripted answer v as the MCP result of a question of
// kind.
func encodeAnswer(kind modapi.QuestionKind, v any) (json.RawMessage, error) {
	switch a := v.(type) {
	case sdk.Answer:
		if kind != modapi.AskForm && kind != modapi.AskURL {
			return nil, fmt.Errorf("an sdk.Answer answers a form or URL question, not a %s question", kind)
		}
		return json.Marshal(a)
	case sdk.Sampled:
		if kind != modapi.AskSample {
			return nil, fmt.Errorf("an sdk.Sampled answers a sample question, not a %s question", kind)
		}
		return json.Marshal(map[string]any{"role": "assistant", "content": map[string]string{"type": "text", "text": a.Text},
			"model": a.Model, "stopReason": a.StopReason})
	case []sdk.Root:
		if kind != modapi.AskRoots {
			return nil, fmt.Errorf("a []sdk.Root answers a roots question, not a %s question", kind)
		}
		if a == nil {
			a = []sdk.Root{}
		}
		return json.Marshal(map[string]any{"roots": a})
	}
	return nil, fmt.Errorf("%T answers no question: use sdk.Answer, sdk.Sampled or []sdk.Root", v)
}

// unasked is the first key, in order, of answers that no question asked
// has; "" when every answer was used.
func unasked(answers map[string]any, asked []Question) string {
	var keys []string
	for k := range answers {
		if !slices.ContainsFunc(asked, func(q Question) bool { return q.Key == k }) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		return ""
	}
	return keys[0]
}

package modtest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/modkit/modkit/internal/answercheck"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
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

// callAsking runs the call as a host does when the handler asks: each
// question is answered from opts.Answers by its key, and the handler is
// run again from the start with the answers so far. It returns the last
// run's response, or why the call fails.
func callAsking(ctx context.Context, srv *modserver.Server, req *modapi.CallRequest, opts *Options, out *Outcome) (*modapi.CallResponse, string) {
	if opts.Answers != nil {
		req.CanAsk = modapi.Kinds
	}
	for {
		out.Runs++
		resp, _ := srv.CallTool(ctx, req)
		if resp.Outcome.Status == modapi.Completed {
			if key := unasked(opts.Answers, out.Questions); key != "" {
				return nil, fmt.Sprintf("modtest: Options.Answers answers question %q, which the handler never asked", key)
			}
		}
		if resp.Outcome.Status != modapi.Asking {
			return resp, ""
		}
		var msg string
		if req.Answers, msg = answerFrom(opts, resp.Outcome.Questions, req.Answers, &out.Questions, req.Tool); msg != "" {
			return nil, msg
		}
	}
}

// answerFrom answers a run's questions from opts.Answers by key, records
// them in seen, and returns the answers the next run is given, or why the
// handler of name fails.
func answerFrom(opts *Options, asked []modapi.Question, answers []modapi.Answered, seen *[]Question, name string) ([]modapi.Answered, string) {
	for _, q := range asked {
		mq := question(q)
		*seen = append(*seen, mq)
		if q.Position >= modapi.MaxQuestions {
			return nil, modapi.TooManyQuestions(name)
		}
		v, ok := opts.Answers[q.Key]
		if !ok {
			return nil, fmt.Sprintf("modtest: no answer in Options.Answers for question %q (%s: %s)", q.Key, q.Kind, mq.Message)
		}
		a, err := encodeAnswer(q.Kind, v)
		if err != nil {
			return nil, fmt.Sprintf("modtest: Options.Answers[%q]: %v", q.Key, err)
		}
		if problems := answercheck.Check(q.Kind, q.Key, answercheck.FormSchema(q.Params), a); len(problems) > 0 {
			return nil, fmt.Sprintf("modtest: Options.Answers[%q] is refused: %s", q.Key, modapi.BadAnswer(problems))
		}
		if q.Position < len(answers) {
			answers = answers[:q.Position]
		}
		answers = append(answers, modapi.Answered{Question: q, Answer: a})
	}
	return answers, ""
}

func question(q modapi.Question) Question {
	out := Question{Kind: string(q.Kind), Key: q.Key, Params: q.Params}
	var p struct {
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
		URL             string          `json:"url"`
	}
	if json.Unmarshal(q.Params, &p) == nil {
		out.Message, out.Schema, out.URL = p.Message, p.RequestedSchema, p.URL
	}
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

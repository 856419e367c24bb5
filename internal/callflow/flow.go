package callflow

import (
	"context"
	"encoding/json"

	"github.com/modkit/modkit/internal/modapi"
)

// Steps are one environment's steps of a tool call, each ending the call
// with an outcome of type R when it returns true. A nil step is skipped.
type Steps[R any] struct {
	// Prepare refuses what the environment refuses before the mod is
	// asked anything.
	Prepare func(ctx context.Context) (R, bool)
	// Check judges the input; hooks, the approval rule and a client see
	// only input it accepted. Nil leaves the judgement to the handler's
	// own decoding, in Call.
	Check func(ctx context.Context) (R, bool)
	// Hooks runs the hooks on the tool call.
	Hooks func(ctx context.Context) (R, bool)
	// Approve runs the tool's approval rule and asks the approver when it
	// says the call needs approval.
	Approve func(ctx context.Context) (R, bool)
	// Client, when set, runs the call in the client instead of the mod
	// and returns its outcome.
	Client func(ctx context.Context) R
	// Call runs the handler once, given answers to its first questions;
	// it returns the mod's response, or ends the call (a transport
	// failure, a timeout).
	Call func(ctx context.Context, answers []modapi.Answered) (*modapi.CallResponse, R, bool)
	// Ask answers the questions one run of the handler asked, which the
	// answers given did not cover, and returns the next run's answers, or
	// ends the call (asking later, failed, cancelled).
	Ask func(ctx context.Context, given []modapi.Answered, asked []modapi.Question) ([]modapi.Answered, R, bool)
	// Outcome turns the handler's outcome into the call's.
	Outcome func(resp *modapi.CallResponse) R
}

// Run runs a tool call's steps in their one order, from answers given
// with the call, and returns its outcome.
func Run[R any](ctx context.Context, s *Steps[R], answers []modapi.Answered) R {
	for _, step := range []func(context.Context) (R, bool){s.Prepare, s.Check, s.Hooks, s.Approve} {
		if step == nil {
			continue
		}
		if r, end := step(ctx); end {
			return r
		}
	}
	if s.Client != nil {
		return s.Client(ctx)
	}
	for {
		resp, r, end := s.Call(ctx, answers)
		if end {
			return r
		}
		if resp.Outcome.Status != modapi.StatusAsking {
			return s.Outcome(resp)
		}
		if answers, r, end = s.Ask(ctx, answers, resp.Outcome.Questions); end {
			return r
		}
	}
}

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

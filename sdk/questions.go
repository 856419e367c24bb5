package sdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modkit/modkit/internal/sdkrt"
)

// ErrAsking is what ToolContext's questions return while their answer is
// not known yet: the question goes to the person (or the client's model),
// this run of the handler must end (return the error), and the handler is
// run again from the start with the answer. See [ToolContext.Ask].
var ErrAsking = sdkrt.ErrAsking

// ErrCannotAsk is wrapped by the error of a question that could not be
// asked: the caller cannot put questions of its kind (an MCP client that
// declared no elicitation, sampling or roots; modhost call without a
// terminal and without an answer given by flag). The handler may carry on
// without the answer, or return the error: the model reads "the question
// could not be asked: …", and an MCP client of 2026-07-28 or later gets a
// MissingRequiredClientCapabilityError (-32021) naming what it lacks.
var ErrCannotAsk = sdkrt.ErrCannotAsk

// Question is a question a handler can put mid-call: a [Form], a
// [URLQuestion], a [SampleRequest] or [RootsQuestion].
type Question interface {
	wire() (sdkrt.Question, error)
}

// AnswerAction is how a person answered a form or a URL question.
type AnswerAction string

// How a person answers.
const (
	// Accept: the person answered (a form's values are in Answer.Values).
	Accept AnswerAction = "accept"
	// Decline: the person said no.
	Decline AnswerAction = "decline"
	// Cancel: the person dismissed the question without choosing.
	Cancel AnswerAction = "cancel"
)

// Answer is a person's answer to a [Form] or a [URLQuestion].
type Answer struct {
	// Action is accept, decline or cancel.
	Action AnswerAction `json:"action"`
	// Values are the form's fields by name, when accepted: strings,
	// float64 numbers, booleans and, for a multiple choice, []any of
	// strings. They passed the form's schema.
	Values map[string]any `json:"content,omitempty"`
}

// Accepted reports whether the person answered.
func (a Answer) Accepted() bool { return a.Action == Accept }

// String returns the string value of field name, "" when it has none.
func (a Answer) String(name string) string { s, _ := a.Values[name].(string); return s }

// Bool returns the boolean value of field name, false when it has none.
func (a Answer) Bool(name string) bool { b, _ := a.Values[name].(bool); return b }

// Number returns the numeric value of field name, 0 when it has none.
func (a Answer) Number(name string) float64 { n, _ := a.Values[name].(float64); return n }

// Strings returns the choices of a multiple-choice field name.
func (a Answer) Strings(name string) []string {
	list, _ := a.Values[name].([]any)
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Ask asks the person to fill form f (MCP form elicitation, a prompt on
// modhost call's terminal, a form in modhost dev, a scripted answer in
// sdk/modtest) and returns their answer.
//
// # Questions and runs
//
// A handler that asks is run again from the start once the question is
// answered, in every front end: the first run ends when Ask returns
// ErrAsking (return it, or any error: what the run returns is dropped);
// the next run is given the answers so far, in order, and its n-th
// question returns the n-th answer at once, when it asks the same thing
// (same kind, key and content) as the run that was answered. A question
// that differs (the handler asks something else this time) and every
// later one is asked anew. The answers live with the caller (over MCP
// 2026-07-28, in the sealed request state), never in the mod, so the run
// with the answers may happen in another mod process. So: ask first, act
// after; keep what runs before a question free of side effects, as an
// approval rule is; activity sent by an earlier run stays in the call's
// log.
//
// An error wrapping ErrCannotAsk means nobody can be asked; the handler
// decides what to do without the answer.
func (c *ToolContext) Ask(f Form) (Answer, error) { return askForm(c.call.Ask, f) }

// AskURL sends the person to a URL (MCP URL elicitation: a sign-in, a
// payment) and returns whether they went through with it. It runs as Ask
// does.
func (c *ToolContext) AskURL(q URLQuestion) (Answer, error) { return askForm(c.call.Ask, q) }

// Sample asks the client's model for a message (MCP sampling). It runs as
// Ask does, and keeps working for every client that supports sampling.
//
// Deprecated: MCP revision 2026-07-28 deprecates sampling (SEP-2577), and
// clients are dropping it. Call the model provider's API directly from the
// handler, with a key the mod receives through Permissions.Env and an
// endpoint it may reach through Permissions.Connect.
func (c *ToolContext) Sample(r SampleRequest) (Sampled, error) { return sample(c.call.Ask, r) }

func sample(ask sdkrt.Asker, r SampleRequest) (Sampled, error) {
	var s sampledWire
	if err := askOne(ask, r, &s); err != nil {
		return Sampled{}, err
	}
	return s.sampled(), nil
}

// Roots returns the client's roots: the directories or files it lets
// servers work on (MCP roots/list). It runs as Ask does, and keeps working
// for every client that supports roots. Its question's key is its
// position among the call's questions (q1, q2, …): AskRoots names it.
//
// Deprecated: MCP revision 2026-07-28 deprecates roots (SEP-2577). Take
// the paths a tool works on as fields of its input, offer what the mod
// reads as resources, and read the session's workspace with
// [ToolContext.Workspace].
func (c *ToolContext) Roots() ([]Root, error) { return roots(c.call.Ask, RootsQuestion{}) }

// AskRoots is Roots with the question's key, as Ask takes a Form's: the
// key by which a client or a test answers it.
//
// Deprecated: as [ToolContext.Roots]: take paths as tool input, or offer
// resources.
func (c *ToolContext) AskRoots(q RootsQuestion) ([]Root, error) { return roots(c.call.Ask, q) }

func roots(ask sdkrt.Asker, q RootsQuestion) ([]Root, error) {
	var r struct {
		Roots []Root `json:"roots"`
	}
	if err := askOne(ask, q, &r); err != nil {
		return nil, err
	}
	return r.Roots, nil
}

// AskAll puts several questions together (one round trip for a client that
// answers them at once), and returns their answers in order, each decoded
// as Ask, AskURL, Sample or Roots return it: Answer, Sampled or []Root.
// Give questions of one call distinct keys.
func (c *ToolContext) AskAll(qs ...Question) ([]any, error) { return askAll(c.call.Ask, qs) }

func askAll(ask sdkrt.Asker, qs []Question) ([]any, error) {
	raw, err := askRaw(ask, qs)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(qs))
	for i, q := range qs {
		switch q.(type) {
		case SampleRequest:
			var s sampledWire
			err = json.Unmarshal(raw[i], &s)
			out[i] = s.sampled()
		case RootsQuestion:
			var r struct {
				Roots []Root `json:"roots"`
			}
			err = json.Unmarshal(raw[i], &r)
			out[i] = r.Roots
		default:
			var a Answer
			err = json.Unmarshal(raw[i], &a)
			out[i] = a
		}
		if err != nil {
			return nil, fmt.Errorf("answer %d cannot be read: %w", i+1, err)
		}
	}
	return out, nil
}

func askForm(ask sdkrt.Asker, q Question) (Answer, error) {
	var a Answer
	err := askOne(ask, q, &a)
	return a, err
}

func askOne(ask sdkrt.Asker, q Question, into any) error {
	raw, err := askRaw(ask, []Question{q})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw[0], into); err != nil {
		return fmt.Errorf("the answer cannot be read: %w", err)
	}
	return nil
}

func askRaw(ask sdkrt.Asker, qs []Question) ([][]byte, error) {
	wire := make([]sdkrt.Question, len(qs))
	for i, q := range qs {
		if q == nil {
			return nil, fmt.Errorf("question %d is nil", i+1)
		}
		w, err := q.wire()
		if err != nil {
			return nil, err
		}
		wire[i] = w
	}
	if ask == nil {
		return nil, fmt.Errorf("%w: nobody can be asked here", ErrCannotAsk)
	}
	raw, err := ask.Ask(wire)
	if err != nil && !errors.Is(err, ErrAsking) {
		return nil, fmt.Errorf("%w: %s", ErrCannotAsk, trimCannotAsk(err.Error()))
	}
	return raw, err
}

// trimCannotAsk drops the runtime's "the question could not be asked: ",
// which ErrCannotAsk says already.
func trimCannotAsk(msg string) string {
	return string(bytes.TrimPrefix([]byte(msg), []byte(ErrCannotAsk.Error()+": ")))
}

// Ask asks the person while a slash command's Prompt runs, as
// [ToolContext.Ask] does while a tool runs: the same questions, answers
// and runs (the prompt is got again from the start with the answers, for
// the same arguments). Outside a Prompt its questions cannot be asked.
func (e *Env) Ask(f Form) (Answer, error) { return askForm(e.ask, f) }

// AskURL is [ToolContext.AskURL] for a slash command's Prompt.
func (e *Env) AskURL(q URLQuestion) (Answer, error) { return askForm(e.ask, q) }

// Sample is [ToolContext.Sample] for a slash command's Prompt.
//
// Deprecated: as [ToolContext.Sample]: call the model provider directly.
func (e *Env) Sample(r SampleRequest) (Sampled, error) { return sample(e.ask, r) }

// Roots is [ToolContext.Roots] for a slash command's Prompt.
//
// Deprecated: as [ToolContext.Roots]: take paths as prompt arguments, or
// offer resources.
func (e *Env) Roots() ([]Root, error) { return roots(e.ask, RootsQuestion{}) }

// AskRoots is [ToolContext.AskRoots] for a slash command's Prompt.
//
// Deprecated: as [ToolContext.Roots].
func (e *Env) AskRoots(q RootsQuestion) ([]Root, error) { return roots(e.ask, q) }

// AskAll is [ToolContext.AskAll] for a slash command's Prompt.
func (e *Env) AskAll(qs ...Question) ([]any, error) { return askAll(e.ask, qs) }

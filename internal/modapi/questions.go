package modapi

import (
	"bytes"
	"encoding/json"

	"github.com/modkit/modkit/internal/words"
)

// QuestionKind is what a question asks for.
type QuestionKind string

// The kinds of question a handler can ask mid-call.
const (
	// AskForm asks a person to fill a form (MCP form elicitation).
	AskForm QuestionKind = "form"
	// AskURL asks a person to visit a URL (MCP URL elicitation).
	AskURL QuestionKind = "url"
	// AskSample asks the client's model for a message (MCP sampling).
	AskSample QuestionKind = "sample"
	// AskRoots asks the client for its roots (MCP roots/list).
	AskRoots QuestionKind = "roots"
)

// Kinds are every kind of question, in a fixed order.
var Kinds = []QuestionKind{AskForm, AskURL, AskSample, AskRoots}

// Question is a question a handler asked. Params is the question as JSON,
// shaped as the params of the MCP request that asks it
// (elicitation/create, sampling/createMessage, roots/list).
type Question struct {
	Kind QuestionKind
	// Key names the question among the call's, as the handler named it.
	Key    string
	Params json.RawMessage
	// Position is the question's place among the call's questions, from 0.
	Position int
}

// Answered is a question with its answer. Answer is shaped as the MCP
// result (ElicitResult, CreateMessageResult, ListRootsResult).
type Answered struct {
	Question Question
	Answer   json.RawMessage
}

// Same reports whether q and o ask the same thing: same kind, and params
// that are the same JSON value.
func (q Question) Same(o Question) bool {
	return q.Kind == o.Kind && q.Key == o.Key && canonical(q.Params) == canonical(o.Params)
}

// canonical is the JSON value of b re-encoded: object keys sorted, no
// spaces; b itself when it is not JSON.
func canonical(b []byte) string {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return string(b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(b)
	}
	return string(out)
}

// MaxQuestions caps the questions of one call: a handler that asks more
// fails the call.
const MaxQuestions = 32

// TooManyQuestions is the failure of a call of tool that asked more than
// MaxQuestions questions.
func TooManyQuestions(tool string) string {
	return words.TooManyQuestions(tool, MaxQuestions)
}

// CannotAsk is why a question of kind could not be asked: the caller
// declared it cannot put it. Handlers read it as the error of Ask.
func CannotAsk(kind QuestionKind) string { return words.CannotAsk(string(kind)) }

package sdkrt

import "errors"

// Question is a question as a handler asks it: Kind is "form", "url",
// "sample" or "roots"; Params are the MCP request's params as JSON.
type Question struct {
	Kind, Key string
	Params    []byte
}

// Asker answers a handler's questions, asked together, with one answer
// each (JSON, shaped as the MCP result), or fails with ErrAsking, or with
// an error saying why the questions could not be asked.
type Asker interface {
	Ask(qs []Question) ([][]byte, error)
}

// ErrAsking says that the questions go to the person, the client or its
// model: this run of the handler ends, and the handler runs again from
// the start with their answers.
var ErrAsking = errors.New("the question is being asked: the call runs again with the answer")

// ErrCannotAsk is wrapped by the error of a question the caller cannot
// put. A handler that returns it (wrapped) ends its run as one that needed
// what the caller could not give.
var ErrCannotAsk = errors.New("the question could not be asked")

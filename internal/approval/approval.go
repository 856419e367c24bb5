package approval

import (
	"context"
	"encoding/json"

	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// Approver asks a person whether a call may run, and reports their answer:
// true to run it. An error fails the call ("approval for tool <name> could
// not be asked: <error>"). The tool's approval rule, in the mod, decides
// whether the approver is asked.
//
// It is called from the call's goroutine, with the call's context, after
// the input was judged valid and the hooks let the call through. A call
// cancelled while the approver waits ends cancelled, whatever the approver
// returns, so an approver should return when ctx ends.
type Approver func(ctx context.Context, req *Request) (approved bool, err error)

// Request is what an Approver shows a person.
type Request struct {
	// Tool is the tool's name; Title is its name for people, if any.
	Tool, Title string
	// CallID is the host's id for the call; Label is the caller's name
	// for it (host.CallRequest.Label).
	CallID, Label string
	// Reason is what the person reads: what the call will do, in the
	// mod's words.
	Reason string
	// Input is the call's input, judged valid.
	Input json.RawMessage
	// Session is the calling session; Agent the calling agent, if any.
	Session sdk.Session
	Agent   string
	// Annotations are the tool's declared behaviour, nil when it declares
	// none. Question says the destructive ones are.
	Annotations *manifest.Annotations
}

// Question is what to ask the person: the tool, whether it may delete or
// overwrite, and the reason. Every approver of modkit asks in these words.
func (r *Request) Question() string {
	return words.ApprovalQuestion(r.Tool, r.Title, r.Reason, r.Annotations != nil && r.Annotations.Destructive)
}

// For returns the request about a call of the tool t (its manifest entry,
// for the title and annotations, which it copies) whose approval rule gave
// reason; the caller sets the call's own fields.
func For(t *manifest.Tool, reason string) *Request {
	r := &Request{Tool: t.Name, Title: t.Title, Reason: reason}
	if a := t.Annotations; a != nil {
		copied := *a
		r.Annotations = &copied
	}
	return r
}

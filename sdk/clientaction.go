package sdk

import (
	"encoding/json"

	"github.com/modkit/modkit/internal/sdkrt"
)

// ClientAction is something a tool asks the client application to do on
// the screen, such as opening a file at a line: its result for the model
// says what it did, and the action travels beside it to the client.
// Nothing else happens on the mod's side. Build one with a
// [ClientActionKind]'s New.
type ClientAction struct {
	// Kind names the action: one of the kinds the tool lists in
	// ClientActions.
	Kind string `json:"kind"`
	// Params are the action's parameters, a JSON object that the kind's
	// schema describes.
	Params json.RawMessage `json:"params"`

	err error // why New could not encode the parameters
}

// ClientActionKind declares a kind of client action and the Go type of its
// parameters, a struct. Declare each kind once, as a package-level
// variable, and list it in the ClientActions of every tool that emits it:
//
//	var OpenFile = sdk.ClientActionKind[OpenFileParams]{
//		Kind:        "open_file",
//		Description: "Opens a workspace file in the client's editor at a line.",
//	}
//
// modgen writes the parameters' JSON Schema into the manifest and
// generates the check that every action of the kind passes before it
// leaves the mod. The parameters are held to the schema as strictly as a
// tool's input: a nil slice encodes as null, which an array field refuses,
// so use omitempty or an empty slice.
type ClientActionKind[P any] struct {
	// Kind is the snake_case name the client dispatches on, unique within
	// the mod.
	Kind string
	// Description says what the client does with the action.
	Description string
}

// New returns an action of kind k with params. A handler returns it in
// Result.Actions or passes it to ToolContext.Act.
func (k ClientActionKind[P]) New(params P) ClientAction {
	data, err := marshalResult(params)
	return ClientAction{Kind: k.Kind, Params: data, err: err}
}

func (k ClientActionKind[P]) clientActionKind() string { return k.Kind }

// ClientActionType is any [ClientActionKind], whatever its parameters: what
// a tool lists in its ClientActions field.
type ClientActionType interface {
	clientActionKind() string
}

// kindNames returns the kinds of ts, in order.
func kindNames(ts []ClientActionType) []string {
	if len(ts) == 0 {
		return nil
	}
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		if t != nil {
			names = append(names, t.clientActionKind())
		}
	}
	return names
}

// wireActions returns the actions a handler emitted through
// ToolContext.Act, then those of its result, as runtimes carry them.
func wireActions(acted, returned []ClientAction) []sdkrt.Action {
	n := len(acted) + len(returned)
	if n == 0 {
		return nil
	}
	out := make([]sdkrt.Action, 0, n)
	for _, list := range [][]ClientAction{acted, returned} {
		for _, a := range list {
			out = append(out, sdkrt.Action{Kind: a.Kind, Params: a.Params, Err: a.err})
		}
	}
	return out
}

// Act asks the client application to take action a when the call
// completes; actions of a call that fails or is cancelled never reach it.
// The action's kind must be one the tool lists in ClientActions. Like
// activity, Act is ignored after Run returns.
func (c *ToolContext) Act(a ClientAction) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ended {
		c.actions = append(c.actions, a)
	}
}

// takeActions returns the actions Act received and ends the context for
// activity and actions: what the handler sends later is dropped.
func (c *ToolContext) takeActions() []ClientAction {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	a := c.actions
	c.actions = nil
	return a
}

// ParamsCheck checks the raw JSON parameters of a client action against
// its kind's schema. Problems are reported as *InputError.
type ParamsCheck func(params []byte) error

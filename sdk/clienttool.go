package sdk

import (
	"encoding/json"
	"fmt"
)

// noRun is the failure of a call that reached a tool with no Run, in the
// words the model reads.
func noRun(tool string, client bool) error {
	if client {
		return fmt.Errorf("tool %s runs in the client application and has no handler in the mod", tool)
	}
	return fmt.Errorf("tool %s has no handler in the mod", tool)
}

// ClientAnswer is a client application's one output for a call of a tool
// that runs in the client: a success with the text the model reads, or an
// error. A host's client handler replies with it; sdk/modtest scripts it.
//
// An answer carries no client actions: client actions are how a mod asks
// the client application to act on the screen, and a client running the
// tool acts on its screen itself. A tool that runs either way emits
// actions only when its Run runs.
type ClientAnswer struct {
	// Text is what the model reads when the call succeeded; an answer
	// without text or an error fails the call.
	Text string
	// Result is the typed result of a RenderedTool, as JSON; the host
	// checks it against the tool's result schema. A PlainTool has none.
	Result json.RawMessage
	// Error, when set, fails the call: the model reads "Tool failed:
	// <Error>".
	Error string
}

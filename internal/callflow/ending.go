package callflow

import (
	"context"
	"errors"
	"time"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// Ending is how a call ended, as the host's CallResult and modtest's
// Outcome both report it: the status, what the model reads and why. Every
// ending of a call is built here, so the two read alike.
type Ending struct {
	// Status is completed, failed, cancelled or denied.
	Status modapi.Status
	// Text is what the model reads: the tool's text when completed,
	// "Tool failed: <Error>" when failed, the person's decision when
	// denied, empty when cancelled.
	Text string
	// Error says why the call failed, was cancelled or denied.
	Error string
	// Cause is the Go error behind the ending, when there is one in this
	// process (the handler's, the approver's, an *sdk.InputError).
	Cause error
	// Abort, when set, says that no call happened (the host closed); the
	// rest is empty.
	Abort error
}

// Failed ends a call that failed for msg; cause is the Go error behind
// it, if any.
func Failed(msg string, cause error) Ending {
	return Ending{Status: modapi.StatusFailed, Text: "Tool failed: " + msg, Error: msg, Cause: cause}
}

// Cancelled ends a call its caller cancelled; cause is the context's
// error or what the handler returned, if any.
func Cancelled(cause error) Ending {
	return Ending{Status: modapi.StatusCancelled, Error: "call cancelled", Cause: cause}
}

// InvalidInput ends a call of tool whose input has problems; cause is
// the *sdk.InputError, when there is one.
func InvalidInput(tool string, problems []string, cause error) Ending {
	return Failed(words.InvalidInput(tool, problems), cause)
}

// NoClient ends a call of a tool that runs only in the client when there
// is no client to run it.
func NoClient(tool string) Ending { return Failed(words.NoClient(tool), nil) }

// Completed is the ending of a handler's (or a client's) outcome o of a
// call of tool: completed with its text, cancelled, or failed with its
// message (its problems, its error, or that it failed silently).
func Completed(tool string, o *modapi.Outcome) Ending {
	switch o.Status {
	case modapi.StatusCompleted:
		return Ending{Status: modapi.StatusCompleted, Text: o.Text}
	case modapi.StatusCancelled:
		return Cancelled(o.Cause)
	}
	return Failed(o.Message(tool), o.Cause)
}

// Refused is the ending of a call of tool whose approval step ended
// step, and false when the call may run: denied when the person declined
// or dismissed the question, failed when the rule failed or nobody could
// be asked, cancelled when the call was cancelled meanwhile.
func Refused(tool string, step modapi.ApprovalStep) (Ending, bool) {
	switch step.Verdict {
	case modapi.ApprovalDenied:
		return Ending{Status: modapi.StatusDenied, Text: words.Denied(tool, step.Reason), Error: words.Declined}, true
	case modapi.ApprovalDismissed:
		return Ending{Status: modapi.StatusDenied, Text: words.Dismissed(tool, step.Reason), Error: words.DismissedError}, true
	case modapi.ApprovalFailed:
		return Failed(step.Failure, step.Err), true
	case modapi.ApprovalCancelled:
		return Cancelled(step.Err), true
	}
	return Ending{}, false
}

// ClientAnswered is the ending of a call of tool that a client ran: a is
// the answer its gate's Wait returned, or err (modapi.ErrClientTimeout
// after timeout, or ctx's error when the call was cancelled; any other
// error fails the call with closed). The answer is judged by
// modapi.ClientOutcome with rendered, max and check.
func ClientAnswered(ctx context.Context, tool string, a sdk.ClientAnswer, err error, timeout time.Duration, closed string,
	rendered bool, max int, check func(result []byte) ([]string, error),
) (Ending, modapi.Outcome) {
	switch {
	case errors.Is(err, modapi.ErrClientTimeout):
		return Failed(words.ClientTimedOut(tool, timeout), nil), modapi.Outcome{}
	case ctx.Err() != nil:
		return Cancelled(ctx.Err()), modapi.Outcome{}
	case err != nil:
		return Failed(closed, err), modapi.Outcome{}
	}
	o := modapi.ClientOutcome(tool, rendered, a, max, check)
	return Completed(tool, &o), o
}

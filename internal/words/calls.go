package words

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/modkit/modkit/internal/limits"
)

// The failures of a call as the model reads them after "Tool failed: ",
// and what a person reads when asked to approve one. internal/modapi
// decides when each applies; these say how it reads.

// ResultTooBig is the failure of a call of tool whose result is size
// bytes, over the max-byte limit.
func ResultTooBig(tool string, size, max int) string {
	return fmt.Sprintf("tool %s returned %d bytes, over the %d-byte result limit; it should return a compact result", tool, size, max)
}

// MessageTooBig is the failure of a command (what names it: "command x",
// "slash command /x") whose message is size bytes, over max.
func MessageTooBig(what string, size, max int) string {
	return fmt.Sprintf("%s returned %d bytes, over the %d-byte message limit; it should return a short message", what, size, max)
}

// OverLimit is the failure of what (a resource, a prompt) whose result is
// size bytes, over max.
func OverLimit(what string, size, max int) string {
	return fmt.Sprintf("%s returned %d bytes, over the %d-byte result limit", what, size, max)
}

// InvalidInput is the failure of a call to tool whose input has problems.
func InvalidInput(tool string, problems []string) string {
	return Message("invalid input for tool "+tool+":", problems)
}

// Blocked is the failure of an action a hook of mod refused, for reason.
func Blocked(mod, reason string) string {
	return fmt.Sprintf("blocked by a hook of mod %s: %s", mod, reason)
}

// FailedSilently is the failure of a call of tool that failed without
// saying why.
func FailedSilently(tool string) string { return "tool " + tool + " failed without a message" }

// ApprovalQuestion is what a person reads when a call of tool needs their
// approval for reason: title is the tool's name for people, if any, and
// destructive says that the tool may delete or overwrite what exists.
func ApprovalQuestion(tool, title, reason string, destructive bool) string {
	what := tool
	if title != "" {
		what = title + " (" + tool + ")"
	}
	if destructive {
		what += ", which may delete or overwrite,"
	}
	return what + " needs your approval: " + reason
}

// Declined is why a denied call did not run, for a person or a view: its
// error, as [Denied] is its text.
const Declined = "the person declined the call"

// DismissedError is why a call whose approval question the person
// dismissed did not run.
const DismissedError = "the person dismissed the approval question"

// NotAsked is the failure of a call of tool whose approver could not ask
// the person, for err.
func NotAsked(tool string, err error) string {
	return "approval for tool " + tool + " could not be asked: " + err.Error()
}

// Denied is what the model reads when the person declined a call of tool
// they were asked to approve for reason.
func Denied(tool, reason string) string {
	return "The person declined this call, so " + tool + " did not run. They were asked: " + reason
}

// Dismissed is what the model reads when the person dismissed the
// question whether a call of tool may run, asked for reason, without
// choosing.
func Dismissed(tool, reason string) string {
	return "The person dismissed the question without choosing, so " + tool + " did not run; ask again only if they want it. They were asked: " + reason
}

// NoApprover is the failure of a call of tool that needed approval for
// reason when nobody could be asked.
func NoApprover(tool, reason string) string {
	return "tool " + tool + " needs a person's approval and none could be asked: " + reason
}

// BadAction is the failure of a call of tool whose client action i (from
// 0), of kind, is wrong; why says how.
func BadAction(tool string, i int, kind, why string) string {
	return fmt.Sprintf("tool %s returned client action %d (%s): %s", tool, i, quote(kind), why)
}

// UndeclaredAction says why an action of a kind the tool does not declare
// is wrong; declared are the kinds it does.
func UndeclaredAction(declared []string) string {
	if len(declared) == 0 {
		return "the tool declares no client actions"
	}
	quoted := make([]string, len(declared))
	for i, k := range declared {
		quoted[i] = strconv.Quote(k)
	}
	return "the tool declares no such kind (it declares " + strings.Join(quoted, ", ") + ")"
}

// InvalidParams says why a client action with problems in its parameters
// is wrong.
func InvalidParams(problems []string) string {
	if len(problems) == 1 {
		return "invalid params: " + limits.Cut(problems[0], limits.MaxProblemBytes)
	}
	return Message("invalid params:", problems)
}

// NoClient is the failure of a call of tool, which runs only in the
// client, when no client handler was given for it.
func NoClient(tool string) string {
	return fmt.Sprintf("tool %s runs in the client application, and no client handler was given for it", tool)
}

// ClientTimedOut is the failure of a call of tool whose client did not
// answer within d.
func ClientTimedOut(tool string, d time.Duration) string {
	return fmt.Sprintf("tool %s timed out after %s waiting for the client's answer", tool, d)
}

// ClientNoText is the failure of a call of tool its client answered
// without text for the model.
func ClientNoText(tool string) string {
	return fmt.Sprintf("the client answered tool %s without text for the model", tool)
}

// ClientUnwantedResult is the failure of a call of a plain tool its
// client answered with a typed result.
func ClientUnwantedResult(tool string) string {
	return fmt.Sprintf("the client answered tool %s with a typed result, which a plain tool does not have", tool)
}

// ClientNoResult is the failure of a call of a rendered tool its client
// answered without its typed result.
func ClientNoResult(tool string) string {
	return fmt.Sprintf("the client answered tool %s without its typed result", tool)
}

// ClientBadResult is the failure of a call of tool its client answered
// with a typed result that has problems.
func ClientBadResult(tool string, problems []string) string {
	return Message("the client answered tool "+tool+" with an invalid result:", Problems(problems, 0))
}

// TooManyQuestions is the failure of a call of tool that asked more than
// max questions.
func TooManyQuestions(tool string, max int) string {
	return fmt.Sprintf("tool %s asked more than %d questions in one call", tool, max)
}

// CannotAsk is why a question of kind ("form", "url", "sample", "roots")
// could not be asked: the caller declared it cannot put it.
func CannotAsk(kind string) string {
	switch kind {
	case "form":
		return "the question could not be asked: the client cannot ask a person to fill a form"
	case "url":
		return "the question could not be asked: the client cannot send a person to a URL"
	case "sample":
		return "the question could not be asked: the client offers no model to sample"
	case "roots":
		return "the question could not be asked: the client declares no roots"
	}
	return fmt.Sprintf("the question could not be asked: unknown kind %q", kind)
}

// RefusedThrice is the failure of a call of tool whose question key was
// asked three times and refused each answer, the last for refusal.
func RefusedThrice(key, tool, refusal string) string {
	return fmt.Sprintf("question %s of tool %s was asked three times and each answer was refused; the last: %s", key, tool, refusal)
}

// BadAnswer is the refusal of an answer to a form that breaks its schema.
func BadAnswer(problems []string) string {
	return Message("the answer does not fit the form:", problems)
}

// BadPromptMessage is the failure of what (a prompt, a slash command)
// whose message i is wrong: why is one of the Message* words below.
func BadPromptMessage(what string, i int, why string) string {
	return fmt.Sprintf("%s: message %d %s", what, i, why)
}

// What can be wrong with one message of a prompt, for [BadPromptMessage].
const (
	MessageImageNoMIME         = "has an image with no MIME type"
	MessageResourceNoURI       = "embeds a resource with no URI"
	MessageResourceTextAndBlob = "embeds a resource with both text and a blob"
	MessageMixed               = "must have one of text, an image and a resource, not more"
)

// MessageRole is why a message whose role is neither user nor assistant
// is wrong, for [BadPromptMessage].
func MessageRole(role, user, assistant string) string {
	return fmt.Sprintf("has role %q, neither %q nor %q", role, user, assistant)
}

// SlashArgMissing is the failure of slash command /id typed without its
// required argument name; usage is how its arguments are typed, like
// "<topic> [depth]".
func SlashArgMissing(id, name, usage string) string {
	return fmt.Sprintf("slash command /%s needs its %s argument: type /%s %s", id, name, id, usage)
}

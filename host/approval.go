package host

import (
	"github.com/modkit/modkit/internal/approval"
	"github.com/modkit/modkit/internal/modapi"
)

// StatusDenied is the outcome of a call a person was asked to approve and
// declined: the handler never ran.
const StatusDenied = modapi.StatusDenied

// Approver asks a person whether a call may run, and reports their answer:
// true to run it. An error fails the call ("approval for tool <name> could
// not be asked: <error>"). The tool's approval rule, in the mod, decides
// whether the approver is asked. It is the one shape of an approver:
// sdk/modtest's Approver is the same type, so an approver runs under
// either.
//
// The host calls it from the call's goroutine, with the call's context,
// after the input was judged valid and the hooks let the call through,
// only when the tool's approval rule (in the mod) says the call needs
// approval. A call cancelled while the approver waits ends cancelled,
// whatever the approver returns, so an approver should return when ctx
// ends. The wait counts toward neither the call's timeout nor the mod's
// grace period: the handler has not started.
type Approver = approval.Approver

// ApprovalRequest is what an Approver shows a person: the tool, the
// call's ids, the reason, the valid input, the session and agent, and the
// tool's annotations. Its Question method is what to ask, in the words
// every approver of modkit uses.
type ApprovalRequest = approval.Request

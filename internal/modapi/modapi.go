package modapi

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/modkit/modkit/sdk"
)

// Mod is one mod as the host calls it. Every method takes a request and
// returns a response, so fields can be added compatibly. An error means the
// mod could not answer (a transport failure, or ctx ended); what the mod
// answered, a failure included, is in the response.
type Mod interface {
	// Describe returns the mod's manifest and which tools it validates.
	Describe(ctx context.Context, req *DescribeRequest) (*DescribeResponse, error)
	// Activate runs the mod's Activate function, once per mod instance.
	Activate(ctx context.Context, req *ActivateRequest) (*ActivateResponse, error)
	// CallTool runs one tool call and returns its one outcome.
	CallTool(ctx context.Context, req *CallRequest) (*CallResponse, error)
	// RenderView renders a tool's custom view for one phase.
	RenderView(ctx context.Context, req *ViewRequest) (*ViewResponse, error)
	// RunCommand runs a command or a slash command.
	RunCommand(ctx context.Context, req *CommandRequest) (*CommandResponse, error)
	// BeforeAction runs the mod's hooks on an action about to happen.
	BeforeAction(ctx context.Context, req *ActionRequest) (*ActionResponse, error)
	// CheckInput judges a tool's input as CallTool would, without running
	// the tool.
	CheckInput(ctx context.Context, req *CheckRequest) (*CheckResponse, error)
	// CallRunning reports whether a call's handler still runs.
	CallRunning(ctx context.Context, req *CallRunningRequest) (*CallRunningResponse, error)
}

// DescribeRequest asks for the mod's description.
type DescribeRequest struct{}

// DescribeResponse describes a mod.
type DescribeResponse struct {
	// Manifest is mod.manifest.json as the mod embeds it.
	Manifest []byte
	// ValidatedTools are the tools whose input the mod checks with a
	// generated validator, sorted.
	ValidatedTools []string
	// Confined reports that the mod's process runs inside a Landlock
	// domain, as the host started it.
	Confined bool
	// CallLane reports that the mod serves tool calls on the call lane
	// its host handed it.
	CallLane bool
	// LaneSteps reports that it serves a call's other steps there too:
	// hooks (BeforeAction), CheckInput and NeedsApproval.
	LaneSteps bool
}

// ActivateRequest asks the mod to activate.
type ActivateRequest struct {
	// Today is the host's date, "YYYY-MM-DD".
	Today string
}

// ActivateResponse says how activation went.
type ActivateResponse struct {
	// Error is set when the mod's Activate function failed.
	Error string
}

// CallRequest asks the mod to run one tool.
type CallRequest struct {
	Tool string
	// Input is the tool input, a JSON object.
	Input   json.RawMessage
	Session sdk.Session
	// CallID is the host-owned identity of the call.
	CallID string
	// Label is the caller's own name for the call, for logs only.
	Label string
	// Caller is who the call is made for (sdk.ToolContext.Caller); nil
	// when the host named nobody.
	Caller *sdk.Caller
	// Today is the host's date, "YYYY-MM-DD".
	Today string
	// Grace is how long a handler may run after cancellation; 0 means
	// forever.
	Grace time.Duration
	// MaxResultBytes caps the result's size (see CapResult); 0 means no cap.
	MaxResultBytes int
	// OnActivity, when set, receives each activity update as the handler
	// sends it, in order, from one goroutine, before CallTool returns. When
	// nil, the updates come back in CallResponse.Activity.
	OnActivity func(sdk.ActivityUpdate)
	// Watcher, when set, receives the updates in OnActivity's place, with
	// no closure made per call. Transports pass updates on with Live,
	// MakeRoom and Deliver, which read both.
	Watcher ActivityWatcher
	// Answers answer the handler's first questions, in order, while each
	// one's question is the one the handler asks (Question.Same).
	Answers []Answered
	// CanAsk are the kinds of question the caller can put; the handler
	// reads any other as not askable (CannotAsk).
	CanAsk []QuestionKind
	// Ahead, when set, are steps that travel with the call, to run in the
	// mod before the handler. Only a mod that serves a call's steps on
	// its call lane takes them; no other is sent any.
	Ahead *Ahead
	// Decoded, when set, is Input as the mod's own input check decoded it
	// in this process (CheckResponse.Decoded): the handler runs with it,
	// and the input is not decoded again. It never travels.
	Decoded any
}

// ActivityWatcher receives a call's activity updates as they come
// (CallRequest.Watcher). Updates that arrived together reach Activity
// after MakeRoom is told how many of them are log entries, so that the
// caller's log grows once for them, not once per update.
type ActivityWatcher interface {
	MakeRoom(logs int)
	Activity(u sdk.ActivityUpdate)
}

// Live reports whether the caller watches r's updates as they come
// (OnActivity or Watcher), not in CallResponse.Activity.
func (r *CallRequest) Live() bool { return r.OnActivity != nil || r.Watcher != nil }

// MakeRoom tells the Watcher, if any, that logs log entries arrived
// together and are delivered next.
func (r *CallRequest) MakeRoom(logs int) {
	if r.Watcher != nil {
		r.Watcher.MakeRoom(logs)
	}
}

// Deliver passes u to the Watcher, else to OnActivity; r is Live.
func (r *CallRequest) Deliver(u sdk.ActivityUpdate) {
	if r.Watcher != nil {
		r.Watcher.Activity(u)
		return
	}
	r.OnActivity(u)
}

// Ahead are the steps that travel with a call to its mod (the call lane),
// to run before the handler, in order: the input check (CheckInput), then
// the hooks on the tool call (BeforeAction), cut after HookTimeout (0:
// never). The handler runs only when both pass.
type Ahead struct {
	Check       bool
	Hook        *ActionRequest
	HookTimeout time.Duration
}

// Stopped is how the steps ahead of a call stopped it, in the words their
// own requests would have had: the first field set is the step's end.
type Stopped struct {
	// Problems and CheckError are CheckResponse's; CheckFailure is why
	// the check could not run, as its request's error would say.
	Problems     []string
	CheckError   string
	CheckFailure string
	// Refusal is ActionResponse's; HookFailure is why the hooks could not
	// run, as their request's error would say; HookTimedOut says they ran
	// past Ahead.HookTimeout.
	Refusal      string
	HookFailure  string
	HookTimedOut bool
}

// ErrNoOutcome is CallTool's error when the mod ended a call without its
// outcome.
var ErrNoOutcome = errors.New("the mod ended the call without an outcome")

// CallResponse is a call's outcome.
type CallResponse struct {
	// Activity is every update the handler sent, in order, when the request
	// had no OnActivity.
	Activity []sdk.ActivityUpdate
	Outcome  Outcome
	// Stopped is set, and Outcome empty, when a step ahead of the call
	// (CallRequest.Ahead) stopped it before the handler ran.
	Stopped *Stopped
}

// Status is how a call ended: completed, failed, cancelled, denied or
// asking. It is the one type of it: host.Status and modtest.Status alias
// it. (A mod's own outcome is never denied: the pipeline ends a call so.)
type Status string

// How a call ends. Over the wire a cancelled call has no outcome:
// CallTool returns the context's error instead.
const (
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
	// StatusAsking: the handler asked Outcome.Questions, which no answer
	// covers.
	StatusAsking Status = "asking"
	// StatusDenied: a person declined the call's approval, or dismissed
	// its question; the handler never ran (callflow.Approve).
	StatusDenied Status = "denied"
)

// Outcome is how a tool call ended.
type Outcome struct {
	Status Status
	// Text is what the model reads, when completed.
	Text string
	// Result is a rendered tool's typed result, as JSON.
	Result json.RawMessage
	// Outputs are a plain tool's Output followed by its Extra.
	Outputs []sdk.Output
	// Error says why the call failed.
	Error string
	// Problems are set when the input broke the tool's contract.
	Problems []string
	// Cause is the Go error that ended the call (an *sdk.InputError, the
	// handler's error, or the recovered panic). Only a mod in the caller's
	// process sets it; over the wire Error and Problems carry its text.
	Cause error
	// Actions are the client actions of a completed call, in order.
	Actions []sdk.ClientAction
	// Questions are what the handler asks together, when Status is
	// Asking: none of them answered yet.
	Questions []Question
	// Unasked are the kinds of question the handler could not ask, when
	// it failed with that error (sdk.ErrCannotAsk): what the caller lacks.
	Unasked []QuestionKind
}

// ViewRequest asks for a tool's view in one phase.
type ViewRequest struct {
	Tool  string
	State sdk.RawViewState
	Run
}

// Run is how the host tracks one request's handler in the mod: by the
// host's id for it, and the grace period the handler has after
// cancellation (0 means forever).
type Run struct {
	CallID string
	Grace  time.Duration
}

// ViewResponse is a rendered view.
type ViewResponse struct {
	HTML string
	// HasView is false when the tool renders no custom view.
	HasView bool
	// Error says why the view failed.
	Error string
}

// CommandRequest asks the mod to run a command or a slash command.
type CommandRequest struct {
	ID string
	// Slash selects a slash command; Text is then its text as typed after
	// "/ID", which the mod trims (SlashText).
	Slash bool
	// Args are a command's JSON arguments; nil means none.
	Args    json.RawMessage
	Text    string
	Session sdk.Session
	Today   string
	// MaxMessageBytes caps the message's size (see CapMessage); 0 means no
	// cap.
	MaxMessageBytes int
	Run
}

// CommandResponse is a command's message for the person, or why it failed.
type CommandResponse struct {
	Message string
	Error   string
}

// ActionRequest shows the mod's hooks an action about to happen.
type ActionRequest struct {
	Action  sdk.Action
	Session sdk.Session
	Today   string
	Run
}

// ActionResponse is the hooks' verdict.
type ActionResponse struct {
	// Refusal is set when a hook blocked the action: it says why.
	Refusal string
}

// CheckRequest asks the mod to judge a tool's input.
type CheckRequest struct {
	Tool  string
	Input json.RawMessage
}

// CheckResponse is the verdict: the problems with the input, or why the mod
// could not judge it.
type CheckResponse struct {
	Problems []string
	Error    string
	// Decoded is the input as the mod decoded it, from a check that
	// passed in the mod's own process, for the call that follows
	// (CallRequest.Decoded). It never travels.
	Decoded any
}

// CallRunningRequest asks whether a call's handler still runs.
type CallRunningRequest struct {
	CallID string
}

// CallRunningResponse says whether it does.
type CallRunningResponse struct {
	Running bool
}

package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/sdkrt"
	"github.com/modkit/modkit/internal/words"
)

// Tool is a capability a model may call. Build one with PlainTool or
// RenderedTool; no other type implements it.
type Tool interface {
	runtime() sdkrt.Tool
}

// Annotations describe what a tool does to the world, for clients that
// decide whether to ask a person before a call (MCP's tool annotations).
// They are hints a client may trust only as far as it trusts the mod. A
// tool that declares them declares all four; modgen warns when a tool
// whose name sounds like it writes declares none.
type Annotations struct {
	// ReadOnly: the tool changes nothing outside the call.
	ReadOnly bool
	// Destructive: the tool may delete or overwrite what exists, rather
	// than only add. Meaningless when ReadOnly.
	Destructive bool
	// Idempotent: a second call with the same input changes nothing more.
	// Meaningless when ReadOnly.
	Idempotent bool
	// OpenWorld: the tool reaches beyond the session's workspace, for
	// example the network.
	OpenWorld bool
}

// TaskSupport says whether a tool's calls run as MCP tasks (the
// io.modelcontextprotocol/tasks extension): the call returns at once with
// a task the client polls, cancels and answers questions through.
//
// A call becomes a task when its handler first reports what it is doing
// (ToolContext.Title or Status) or has run for a second, whichever comes
// first; questions it asks before then are asked in the call itself. A
// call that finishes sooner returns its result directly. The task's status
// message follows the call's title and status.
type TaskSupport string

const (
	// TaskOptional: a call runs as a task when its client supports tasks,
	// and as a plain call otherwise.
	TaskOptional TaskSupport = "optional"
	// TaskRequired: a call always runs as a task; a client that does not
	// support tasks is refused. For work that outlives any one request,
	// such as a search over a large tree.
	TaskRequired TaskSupport = "required"
)

// Result is what a tool call gives the model: text, and for plain tools an
// optional output such as an image.
type Result struct {
	// Text is what the model reads.
	Text string
	// Output is an optional payload with a MIME type.
	Output *Output
	// Extra holds further outputs, for results that carry several.
	Extra []Output
	// Actions are client actions for the client application, each of a
	// kind the tool lists in ClientActions; they follow any the handler
	// passed to ToolContext.Act.
	Actions []ClientAction
}

// Output is a payload with a MIME type: an image, audio, or a document.
type Output struct {
	// MimeType is the payload's media type, for example "image/png".
	MimeType string
	// Content is the payload: plain text for text types ("text/*",
	// "application/json"), base64 for everything else.
	Content string
	// URI optionally names the payload as a resource, for example
	// "file:///report.md".
	URI string
}

// Text returns a result holding only text.
func Text(text string) Result { return Result{Text: text} }

// PlainTool is a tool whose handler returns text, or text with an output.
type PlainTool[In any] struct {
	// Name is the snake_case name the model calls, unique across mods.
	Name string
	// Title is the tool's name for people, like "Search the workspace".
	Title string
	// Description says what the tool returns and when to call it; the model
	// picks tools by it.
	Description string
	// Activity is a present-tense label ending in an ellipsis, shown while the
	// tool runs: "Counting words…".
	Activity string
	// Icons stand for the tool in a client's interface; the mod's when
	// empty.
	Icons []Icon
	// Annotations, when set, say what the tool does to the world.
	Annotations *Annotations
	// Run does the work. An error reaches the model as "Tool failed: <message>";
	// a result that explains the problem is better. modgen requires Run
	// unless Client is set.
	Run func(tc *ToolContext, in In) (Result, error)
	// Approval, when set, makes the tool wait for a person's approval
	// before it runs: always, or when its Ask function says so.
	Approval *Approval[In]
	// ClientActions are the kinds of client action the tool may emit; an
	// action of any other kind fails the call. Only Run emits them: a
	// client's answer carries none.
	ClientActions []ClientActionType
	// Client lets the client application run the tool (see
	// Example_clientTool and the repository's docs/calls.md): a call goes
	// to the client's handler when it has one for the tool, and to Run
	// otherwise. With Client set, Run
	// may be nil: then only a client runs the tool, and it lists no
	// ClientActions.
	Client bool
	// Task says whether a call may run as an MCP task, which a client
	// polls and may cancel, from any replica behind a load balancer:
	// empty means never, TaskOptional when the client supports tasks,
	// TaskRequired always (a client without tasks is refused).
	Task TaskSupport
	// Scopes are the OAuth scopes a caller must hold to see and call the
	// tool where the host asks for access tokens (modhost mcp --http
	// --auth-issuer): a token without every one of them gets 403. A local
	// user holds every scope. Each is an RFC 6749 scope-token, like
	// "notes.write".
	Scopes []string
}

func (t PlainTool[In]) runtime() sdkrt.Tool { return plainRuntime[In]{t} }

// plainRuntime is a PlainTool as runtimes run it.
type plainRuntime[In any] struct{ t PlainTool[In] }

func (r plainRuntime[In]) Name() string                    { return r.t.Name }
func (r plainRuntime[In]) Decode(data []byte) (any, error) { return decodeJSON[In](data) }

func (r plainRuntime[In]) RenderView(*sdkrt.ViewState) (string, bool, error) {
	return "", false, nil
}

func (r plainRuntime[In]) ClientActionKinds() []string { return kindNames(r.t.ClientActions) }

func (r plainRuntime[In]) Run(ctx context.Context, call sdkrt.Call, input any) (*sdkrt.Result, error) {
	in, err := checkInput[In](input)
	if err != nil {
		return nil, err
	}
	if r.t.Run == nil {
		return nil, noRun(r.t.Name, r.t.Client)
	}
	tc := newToolContext(ctx, call)
	defer tc.end() // even when Run panics
	res, err := r.t.Run(tc, in)
	if err != nil {
		return nil, err
	}
	return &sdkrt.Result{Text: res.Text, Outputs: res.outputs(), Actions: wireActions(tc.takeActions(), res.Actions)}, nil
}

// outputs returns Output followed by Extra, as the wire carries them.
func (r Result) outputs() []sdkrt.Output {
	n := len(r.Extra)
	if r.Output != nil {
		n++
	}
	if n == 0 {
		return nil
	}
	out := make([]sdkrt.Output, 0, n)
	if r.Output != nil {
		out = append(out, sdkrt.Output(*r.Output))
	}
	for _, o := range r.Extra {
		out = append(out, sdkrt.Output(o))
	}
	return out
}

// RenderedTool is a tool whose handler returns a typed result, with a view
// that turns it into text for the model and, optionally, HTML for a person.
type RenderedTool[In, Out any] struct {
	// Name is the snake_case name the model calls, unique across mods.
	Name string
	// Title is the tool's name for people, like "Search the workspace".
	Title string
	// Description says what the tool returns and when to call it.
	Description string
	// Activity is a present-tense label ending in an ellipsis.
	Activity string
	// Icons stand for the tool in a client's interface; the mod's when
	// empty.
	Icons []Icon
	// Annotations, when set, say what the tool does to the world.
	Annotations *Annotations
	// Run does the work and returns the typed result; modgen requires it
	// unless Client is set.
	Run func(tc *ToolContext, in In) (Out, error)
	// View turns the result into what the model reads and a person sees;
	// modgen requires View.Text when the tool has a Run.
	View View[In, Out]
	// Approval, when set, makes the tool wait for a person's approval
	// before it runs: always, or when its Ask function says so.
	Approval *Approval[In]
	// ClientActions are the kinds of client action the tool may emit with
	// ToolContext.Act; an action of any other kind fails the call.
	ClientActions []ClientActionType
	// Client lets the client application run the tool, as for PlainTool;
	// a client answers with the typed result, as JSON, and the text the
	// model reads.
	Client bool
	// Task says whether a call may run as an MCP task, as for PlainTool.
	Task TaskSupport
	// Scopes are the OAuth scopes a caller must hold to see and call the
	// tool, as for PlainTool.
	Scopes []string
}

// View presents a rendered tool's result.
type View[In, Out any] struct {
	// Text is required: the model reads what it returns and never has to
	// scrape the HTML.
	Text func(result Out) string
	// Render, when set, returns HTML for a person, for each phase of the call.
	// The host shows it in a sandboxed frame; escape what you interpolate.
	Render func(state ViewState[In, Out]) string
}

func (t RenderedTool[In, Out]) runtime() sdkrt.Tool { return renderedRuntime[In, Out]{t} }

// renderedRuntime is a RenderedTool as runtimes run it.
type renderedRuntime[In, Out any] struct{ t RenderedTool[In, Out] }

func (r renderedRuntime[In, Out]) Name() string                    { return r.t.Name }
func (r renderedRuntime[In, Out]) ClientActionKinds() []string     { return kindNames(r.t.ClientActions) }
func (r renderedRuntime[In, Out]) Decode(data []byte) (any, error) { return decodeJSON[In](data) }

func (r renderedRuntime[In, Out]) Run(ctx context.Context, call sdkrt.Call, input any) (*sdkrt.Result, error) {
	in, err := checkInput[In](input)
	if err != nil {
		return nil, err
	}
	t := r.t
	if t.Run == nil {
		return nil, noRun(t.Name, t.Client)
	}
	if t.View.Text == nil {
		return nil, fmt.Errorf("tool %s has no text for the model in the mod", t.Name)
	}
	tc := newToolContext(ctx, call)
	defer tc.end() // even when Run panics
	out, err := t.Run(tc, in)
	if err != nil {
		return nil, err
	}
	data, err := marshalResult(out)
	if err != nil {
		return nil, fmt.Errorf("tool %s returned a result that cannot be encoded: %s", t.Name, words.Encode(err))
	}
	return &sdkrt.Result{Text: t.View.Text(out), Data: data, Actions: wireActions(tc.takeActions(), nil)}, nil
}

func (r renderedRuntime[In, Out]) RenderView(raw *sdkrt.ViewState) (string, bool, error) {
	t := r.t
	if t.View.Render == nil {
		return "", false, nil
	}
	state := ViewState[In, Out]{Phase: Phase(raw.Phase), Error: raw.Error}
	if len(raw.Input) > 0 {
		// Input may be partial while preparing: take what decodes.
		_ = json.Unmarshal(raw.Input, &state.Input)
	}
	if state.Phase == PhaseCompleted {
		if err := json.Unmarshal(raw.Result, &state.Result); err != nil {
			return "", true, fmt.Errorf("decode result of %s: %w", t.Name, err)
		}
	}
	return t.View.Render(state), true, nil
}

// Validator is implemented by input types with cross-field rules. Validate
// runs after the structural checks and before the handler. Its error reaches
// the model as invalid input; return an *InputError to report several
// problems, each "/json/path: what is wrong".
type Validator interface {
	Validate() error
}

// InputError reports input that breaks the tool's contract. The runtime tells
// it apart from a handler's failure.
//
// Its message lists at most the first 50 problems, each cut to 1 KiB, then
// counts the rest: "and 19950 more problems". Quote at most a short part of
// an offending value in a problem.
type InputError struct {
	// Problems are "/json/path: what is wrong" lines.
	Problems []string
	// More counts problems found but left out of Problems: a validator
	// stops listing after the first 50.
	More int
}

func (e *InputError) Error() string {
	if len(e.Problems) == 1 && e.More <= 0 {
		return "invalid input: " + limits.Cut(e.Problems[0], limits.MaxProblemBytes)
	}
	return words.Message("invalid input:", words.Problems(e.Problems, e.More))
}

func (r plainRuntime[In]) Validate(input any) error {
	_, err := checkInput[In](input)
	return err
}

func (r renderedRuntime[In, Out]) Validate(input any) error {
	_, err := checkInput[In](input)
	return err
}

func checkInput[In any](input any) (In, error) {
	in, ok := input.(In)
	if !ok {
		var zero In
		return zero, fmt.Errorf("input is %T, want %T", input, zero)
	}
	// input holds in already: asking it costs no allocation, where
	// any(in) would copy in to the heap on every call.
	if v, ok := input.(Validator); ok {
		if err := v.Validate(); err != nil {
			return in, validationError(err)
		}
	} else if _, ok := any((*In)(nil)).(Validator); ok {
		// A pointer receiver's Validate may change the input: the
		// handler gets it as Validate left it.
		p := new(In)
		*p = in
		if err := any(p).(Validator).Validate(); err != nil {
			return *p, validationError(err)
		}
		return *p, nil
	}
	return in, nil
}

// validationError turns a Validate error into an *InputError. A Validate
// method that finds several problems may return an *InputError listing them.
func validationError(err error) *InputError {
	var ie *InputError
	if errors.As(err, &ie) {
		return ie
	}
	return &InputError{Problems: []string{err.Error()}}
}

func decodeJSON[In any](data []byte) (any, error) {
	var in In
	if err := json.Unmarshal(data, &in); err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			return nil, ie
		}
		decode := func(one []byte) error {
			var in In
			return json.Unmarshal(one, &in)
		}
		return nil, &InputError{Problems: []string{words.Problem(data, err, decode)}}
	}
	return in, nil
}

// Phase is the stage of a call a view renders.
type Phase string

// The four phases of a call.
const (
	// PhasePreparing: the model is still writing the input; it may be partial.
	PhasePreparing Phase = "preparing"
	// PhaseRunning: the input is complete and the handler runs.
	PhaseRunning Phase = "running"
	// PhaseCompleted: the handler returned a result.
	PhaseCompleted Phase = "completed"
	// PhaseFailed: the call failed; Error says why.
	PhaseFailed Phase = "failed"
)

// ViewState is what a view renders: the phase, and what exists in it.
type ViewState[In, Out any] struct {
	Phase Phase
	// Input is the tool input; partial while preparing.
	Input In
	// Result is set when completed.
	Result Out
	// Error is set when failed.
	Error string
}

// RawViewState is a ViewState with input and result still JSON, as a host
// passes it to a view.
type RawViewState struct {
	Phase  Phase
	Input  json.RawMessage
	Result json.RawMessage
	Error  string
}

// Generated binds a mod to what modgen derived from it. modgen writes a
// function returning it into the mod package:
//
//	func Modkit() *sdk.Generated
//
// A mod's serving main and sdk/modtest take it.
type Generated struct {
	// Mod is the mod's DefineMod value.
	Mod Mod
	// Manifest is the mod.manifest.json modgen wrote.
	Manifest []byte
	// Inputs are the generated validate-and-decode functions, by tool name.
	Inputs map[string]InputDecoder
	// ClientActions are the generated checks of client action parameters,
	// by kind.
	ClientActions map[string]ParamsCheck
}

// InputDecoder checks raw JSON against a tool's input contract and decodes
// it into the tool's input type. Problems are reported as *InputError.
type InputDecoder func(data []byte) (any, error)

package sdk

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modkit/modkit/internal/jsonwords"
)

// Tool is a capability a model may call. Build one with PlainTool or
// RenderedTool; the interface is implemented only by those.
type Tool interface {
	// Info returns the tool's name, description and activity label.
	Info() ToolInfo
	// Invoke validates input, which the host decoded with the generated
	// validator, runs the handler and returns its outcome. Runtimes call it;
	// mod authors do not.
	Invoke(tc *ToolContext, input any) (*Result, error)
	// RenderView renders the tool's custom view for one phase. It reports
	// false when the tool has no custom view.
	RenderView(state RawViewState) (html string, ok bool, err error)
	// DecodeInput decodes input with encoding/json, for runtimes that have no
	// generated decoder for the tool.
	DecodeInput(data []byte) (any, error)
}

// ToolInfo is what a runtime reads from a tool without running it.
type ToolInfo struct {
	Name        string
	Description string
	Activity    string
	Rendered    bool
	HasView     bool
}

// Result is what a tool call gives the model: text, and for plain tools an
// optional output such as an image.
type Result struct {
	// Text is what the model reads.
	Text string
	// Output is an optional payload with a MIME type.
	Output *Output
	// Extra holds further outputs, for results that carry several.
	Extra []Output
	// Data is a rendered tool's typed result, encoded as JSON by Invoke.
	Data json.RawMessage
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
	// Description says what the tool returns and when to call it; the model
	// picks tools by it.
	Description string
	// Activity is a present-tense label ending in an ellipsis, shown while the
	// tool runs: "Counting words…".
	Activity string
	// Run does the work. An error reaches the model as "Tool failed: <message>";
	// a result that explains the problem is better.
	Run func(tc *ToolContext, in In) (Result, error)
}

// Info implements Tool.
func (t PlainTool[In]) Info() ToolInfo {
	return ToolInfo{Name: t.Name, Description: t.Description, Activity: t.Activity}
}

// Invoke implements Tool.
func (t PlainTool[In]) Invoke(tc *ToolContext, input any) (*Result, error) {
	in, err := checkInput[In](input)
	if err != nil {
		return nil, err
	}
	if t.Run == nil {
		return nil, fmt.Errorf("tool %s has no Run function", t.Name)
	}
	res, err := t.Run(tc, in)
	if err != nil {
		return nil, err
	}
	res.Data = nil
	return &res, nil
}

// RenderView implements Tool: plain tools have no custom view.
func (t PlainTool[In]) RenderView(RawViewState) (string, bool, error) { return "", false, nil }

// DecodeInput implements Tool.
func (t PlainTool[In]) DecodeInput(data []byte) (any, error) { return decodeJSON[In](data) }

// RenderedTool is a tool whose handler returns a typed result, with a view
// that turns it into text for the model and, optionally, HTML for a person.
type RenderedTool[In, Out any] struct {
	// Name is the snake_case name the model calls, unique across mods.
	Name string
	// Description says what the tool returns and when to call it.
	Description string
	// Activity is a present-tense label ending in an ellipsis.
	Activity string
	// Run does the work and returns the typed result.
	Run func(tc *ToolContext, in In) (Out, error)
	// View turns the result into what the model reads and a person sees.
	View View[In, Out]
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

// Info implements Tool.
func (t RenderedTool[In, Out]) Info() ToolInfo {
	return ToolInfo{Name: t.Name, Description: t.Description, Activity: t.Activity,
		Rendered: true, HasView: t.View.Render != nil}
}

// Invoke implements Tool.
func (t RenderedTool[In, Out]) Invoke(tc *ToolContext, input any) (*Result, error) {
	in, err := checkInput[In](input)
	if err != nil {
		return nil, err
	}
	if t.Run == nil || t.View.Text == nil {
		return nil, fmt.Errorf("tool %s needs Run and View.Text", t.Name)
	}
	out, err := t.Run(tc, in)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("encode result of %s: %w", t.Name, err)
	}
	return &Result{Text: t.View.Text(out), Data: data}, nil
}

// RenderView implements Tool.
func (t RenderedTool[In, Out]) RenderView(raw RawViewState) (string, bool, error) {
	if t.View.Render == nil {
		return "", false, nil
	}
	state := ViewState[In, Out]{Phase: raw.Phase, Error: raw.Error}
	if len(raw.Input) > 0 {
		// Input may be partial while preparing: take what decodes.
		_ = json.Unmarshal(raw.Input, &state.Input)
	}
	if raw.Phase == PhaseCompleted {
		if err := json.Unmarshal(raw.Result, &state.Result); err != nil {
			return "", true, fmt.Errorf("decode result of %s: %w", t.Name, err)
		}
	}
	return t.View.Render(state), true, nil
}

// DecodeInput implements Tool.
func (t RenderedTool[In, Out]) DecodeInput(data []byte) (any, error) { return decodeJSON[In](data) }

// Validator is implemented by input types with cross-field rules. Validate
// runs after the structural checks and before the handler. Its error reaches
// the model as invalid input; return an *InputError to report several
// problems, each "/json/path: what is wrong".
type Validator interface {
	Validate() error
}

// InputError reports input that breaks the tool's contract. The runtime tells
// it apart from a handler's failure.
type InputError struct {
	// Problems are "/json/path: what is wrong" lines, all of them.
	Problems []string
}

func (e *InputError) Error() string {
	if len(e.Problems) == 1 {
		return "invalid input: " + e.Problems[0]
	}
	msg := "invalid input:"
	for _, p := range e.Problems {
		msg += "\n  " + p
	}
	return msg
}

func checkInput[In any](input any) (In, error) {
	in, ok := input.(In)
	if !ok {
		var zero In
		return zero, fmt.Errorf("input is %T, want %T", input, zero)
	}
	if v, ok := any(in).(Validator); ok {
		if err := v.Validate(); err != nil {
			return in, validationError(err)
		}
	} else if v, ok := any(&in).(Validator); ok {
		if err := v.Validate(); err != nil {
			return in, validationError(err)
		}
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
		return nil, &InputError{Problems: []string{jsonwords.Problem(data, err)}}
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

// RawViewState is a ViewState with input and result still JSON, as a runtime
// receives it.
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
}

// InputDecoder checks raw JSON against a tool's input contract and decodes
// it into the tool's input type. Problems are reported as *InputError.
type InputDecoder func(data []byte) (any, error)

// Tool returns the mod's tool with the given name.
func (g *Generated) Tool(name string) (Tool, bool) {
	for _, t := range g.Mod.AI.Tools {
		if t.Info().Name == name {
			return t, true
		}
	}
	return nil, false
}

// Decode validates and decodes input for the named tool with its generated
// decoder, or with encoding/json when there is none.
func (g *Generated) Decode(t Tool, data []byte) (any, error) {
	if dec, ok := g.Inputs[t.Info().Name]; ok {
		return dec(data)
	}
	return t.DecodeInput(data)
}

package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// SamplingInput is the input of test_sampling.
type SamplingInput struct {
	// Prompt is what the client's model is asked.
	Prompt string `json:"prompt"`
}

// ElicitationInput is the input of test_elicitation.
type ElicitationInput struct {
	// Message is what the person reads.
	Message string `json:"message"`
}

// answerText is an answer as the suite's fixtures print it.
func answerText(a sdk.Answer) string {
	content, _ := json.Marshal(a.Values)
	if a.Values == nil {
		content = []byte("{}")
	}
	return fmt.Sprintf("action=%s, content=%s", a.Action, content)
}

// nameForm asks a name, under key.
func nameForm(key, message string) sdk.Form {
	return sdk.Form{Key: key, Message: message, Fields: []sdk.Field{{Name: "name", Type: sdk.FieldString, Required: true}}}
}

// confirmForm asks for a confirmation.
var confirmForm = sdk.Form{Key: "confirm", Message: "Please confirm", Fields: []sdk.Field{{Name: "ok", Type: sdk.FieldBoolean, Required: true}}}

func float(f float64) *float64 { return &f }

// rootsOf asks q and lists the roots' URIs.
func rootsOf(tc *sdk.ToolContext, q sdk.RootsQuestion) (string, error) {
	got, err := tc.AskAll(q)
	if err != nil {
		return "", err
	}
	var uris []string
	for _, r := range got[0].([]sdk.Root) {
		uris = append(uris, r.URI)
	}
	return strings.Join(uris, ", "), nil
}

func sampling(tc *sdk.ToolContext, in SamplingInput) (sdk.Result, error) {
	s, err := tc.Sample(sdk.SampleRequest{Messages: []sdk.Message{{Role: "user", Text: in.Prompt}}, MaxTokens: 100})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("LLM response: " + s.Text), nil
}

func elicitation(tc *sdk.ToolContext, in ElicitationInput) (sdk.Result, error) {
	a, err := tc.Ask(sdk.Form{Message: in.Message, Fields: []sdk.Field{
		{Name: "username", Description: "User's response", Required: true},
		{Name: "email", Description: "User's email address", Required: true},
	}})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("User response: " + answerText(a)), nil
}

// askForm returns a handler that asks form and prints the answer.
func askForm(form sdk.Form) func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	return func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
		a, err := tc.Ask(form)
		if err != nil {
			return sdk.Result{}, err
		}
		return sdk.Text("Elicitation completed: " + answerText(a)), nil
	}
}

// The SEP-1034 form: a default for every primitive type.
var defaultsForm = sdk.Form{
	Message: "Please review and update the form fields with defaults",
	Fields: []sdk.Field{
		{Name: "name", Type: sdk.FieldString, Default: "John Doe"},
		{Name: "age", Type: sdk.FieldInteger, Default: 30},
		{Name: "score", Type: sdk.FieldNumber, Default: 95.5, Minimum: float(0), Maximum: float(100)},
		{Name: "status", Default: "active", Options: []sdk.Option{{Value: "active"}, {Value: "inactive"}, {Value: "pending"}}},
		{Name: "verified", Type: sdk.FieldBoolean, Default: true},
	},
}

// The SEP-1330 form: every kind of choice.
var enumsForm = sdk.Form{
	Message: "Please select options from the enum fields",
	Fields: []sdk.Field{
		{Name: "untitledSingle", Options: []sdk.Option{{Value: "option1"}, {Value: "option2"}, {Value: "option3"}}},
		{Name: "titledSingle", Options: []sdk.Option{{Value: "value1", Title: "First Option"}, {Value: "value2", Title: "Second Option"}, {Value: "value3", Title: "Third Option"}}},
		{Name: "legacyEnum", LegacyTitles: true, Options: []sdk.Option{{Value: "opt1", Title: "Option One"}, {Value: "opt2", Title: "Option Two"}, {Value: "opt3", Title: "Option Three"}}},
		{Name: "untitledMulti", Multiple: true, Options: []sdk.Option{{Value: "option1"}, {Value: "option2"}, {Value: "option3"}}},
		{Name: "titledMulti", Multiple: true, Options: []sdk.Option{{Value: "value1", Title: "First Choice"}, {Value: "value2", Title: "Second Choice"}, {Value: "value3", Title: "Third Choice"}}},
	},
}

func urlElicitation(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	a, err := tc.AskURL(sdk.URLQuestion{Key: "visit", Message: "Please visit the page to continue", URL: "https://example.com/continue"})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("URL elicitation completed: action=" + string(a.Action)), nil
}

func inputElicitation(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	a, err := tc.Ask(nameForm("user_name", "What is your name?"))
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("Hello, " + a.String("name") + "!"), nil
}

func inputSampling(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	s, err := tc.Sample(sdk.SampleRequest{Key: "capital_question", Messages: []sdk.Message{{Role: "user", Text: "What is the capital of France?"}}, MaxTokens: 100})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("The model says: " + s.Text), nil
}

func inputRoots(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	roots, err := rootsOf(tc, sdk.RootsQuestion{Key: "client_roots"})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("Roots: " + roots), nil
}

func inputRequestState(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	a, err := tc.Ask(confirmForm)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text(fmt.Sprintf("state-ok: confirmed=%v", a.Bool("ok"))), nil
}

func inputMultiple(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	got, err := tc.AskAll(
		nameForm("user_name", "What is your name?"),
		sdk.SampleRequest{Key: "greeting", Messages: []sdk.Message{{Role: "user", Text: "Generate a greeting"}}, MaxTokens: 50},
		sdk.RootsQuestion{Key: "client_roots"},
	)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text(fmt.Sprintf("Name: %s; greeting: %s; roots: %d",
		got[0].(sdk.Answer).String("name"), got[1].(sdk.Sampled).Text, len(got[2].([]sdk.Root)))), nil
}

func inputMultiRound(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	name, err := tc.Ask(nameForm("step1", "Step 1: What is your name?"))
	if err != nil {
		return sdk.Result{}, err
	}
	color, err := tc.Ask(sdk.Form{Key: "step2", Message: "Step 2: What is your favorite color?",
		Fields: []sdk.Field{{Name: "color", Required: true}}})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text(fmt.Sprintf("%s likes %s", name.String("name"), color.String("color"))), nil
}

// inputCapabilities asks only what the client declared it can answer:
// the questions it cannot are skipped.
func inputCapabilities(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	var said []string
	a, err := tc.Ask(nameForm("user_name", "What is your name?"))
	switch {
	case errors.Is(err, sdk.ErrCannotAsk):
	case err != nil:
		return sdk.Result{}, err
	default:
		said = append(said, "name: "+a.String("name"))
	}
	s, err := tc.Sample(sdk.SampleRequest{Key: "greeting", Messages: []sdk.Message{{Role: "user", Text: "Generate a greeting"}}, MaxTokens: 50})
	switch {
	case errors.Is(err, sdk.ErrCannotAsk):
	case err != nil:
		return sdk.Result{}, err
	default:
		said = append(said, "greeting: "+s.Text)
	}
	return sdk.Text("Asked what the client can answer: " + strings.Join(said, "; ")), nil
}

// missingCapability needs the client's model: without it, it returns the
// error of the question it could not ask, and the request fails as one
// that needs a capability the client lacks.
func missingCapability(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	s, err := tc.Sample(sdk.SampleRequest{Key: "greeting", Messages: []sdk.Message{{Role: "user", Text: "Generate a greeting"}}, MaxTokens: 50})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("The model said: " + s.Text), nil
}

// streamingElicitation asks the person a name.
func streamingElicitation(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	a, err := tc.Ask(nameForm("user_name", "What is your name?"))
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("Hello, " + a.String("name")), nil
}

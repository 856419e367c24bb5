// Package conformance is a fixture mod with the tools the official MCP
// conformance suite (@modelcontextprotocol/conformance) calls by name. It is
// served by modhost mcp in the suite's run; nothing here knows about MCP.
package conformance

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"errors"
	"time"

	"github.com/modkit/modkit/sdk"
)

// A 1x1 red PNG and a short silent WAV, base64.
const (
	redPixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
	silentWAV   = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA=="
)

// step is how long the logging and progress tools wait between updates, so
// that a client sees the notifications arrive during the call. It is longer
// than the 100 ms by which the bridge coalesces progress updates, so that
// each update reaches the client as a notification of its own.
const step = 120 * time.Millisecond

// None takes no input.
type None struct{}

// ContactMethod is how to reach a person.
type ContactMethod string

// The contact methods.
const (
	ByPhone ContactMethod = "phone"
	ByEmail ContactMethod = "email"
)

// Contact is the input of json_schema_2020_12_tool.
type Contact struct {
	// The person gives a phone number or an email address, and the one
	// their contact method names.
	_ struct{} `jsonschema:"anyRequired=phone|email,if=contactMethod=phone,then=phone,else=email"`
	// Name is the person's name.
	Name string `json:"name,omitempty"`
	// Address is where the person lives.
	Address *address `json:"address,omitempty"`
	// ContactMethod is how the person prefers to be reached.
	ContactMethod ContactMethod `json:"contactMethod,omitempty"`
	// Phone is the person's phone number.
	Phone string `json:"phone,omitempty"`
	// Email is the person's email address.
	Email string `json:"email,omitempty" jsonschema:"format=email"`
}

// address is a postal address; the previous one, if any, nests.
type address struct {
	// The schema's $anchor names the address.
	_ struct{} `jsonschema:"anchor=addressDef"`
	// Street is the street and number.
	Street string `json:"street,omitempty"`
	// City is the city.
	City string `json:"city,omitempty"`
	// Previous is the address before this one.
	Previous *address `json:"previous,omitempty"`
}

// Regional is the input of test_x_mcp_header.
type Regional struct {
	// Region is mirrored into the Mcp-Param-Region header by clients of
	// protocol 2026-07-28.
	Region string `json:"region" jsonschema:"x-mcp-header=Region"`
	// Level is not mirrored.
	Level int `json:"level,omitempty"`
}

// Mod is the conformance fixture mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "conformance",
		DisplayName: "MCP conformance fixture",
		Description: "Tools, resources, prompts and completions the official MCP conformance suite asks for by name.",
	},
	// It writes nothing, but its tools stand for tools that do: a mod that
	// may not write would have every tool listed read-only, and a task of
	// a read-only tool is run again, not failed, when its replica stops.
	Permissions:       sdk.Permissions{WriteWorkspace: true},
	Resources:         resources,
	ResourceTemplates: templates,
	SlashCommands:     prompts,
	Activate:          activate,
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[None]{
			Name:        "test_simple_text",
			Description: "Returns a fixed text. Call it to test text results.",
			Activity:    "Answering…",
			Run: func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
				return sdk.Text("This is a simple text response for testing."), nil
			},
		},
		sdk.PlainTool[None]{
			Name:        "test_image_content",
			Description: "Returns a 1x1 red PNG. Call it to test image results.",
			Activity:    "Drawing…",
			Run: func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
				return sdk.Result{Output: &sdk.Output{MimeType: "image/png", Content: redPixelPNG}}, nil
			},
		},
		sdk.PlainTool[None]{
			Name:        "test_audio_content",
			Description: "Returns a short silent WAV. Call it to test audio results.",
			Activity:    "Recording…",
			Run: func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
				return sdk.Result{Output: &sdk.Output{MimeType: "audio/wav", Content: silentWAV}}, nil
			},
		},
		sdk.PlainTool[None]{
			Name:        "test_embedded_resource",
			Description: "Returns a text document as a resource. Call it to test embedded resources.",
			Activity:    "Attaching…",
			Run: func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
				return sdk.Result{Output: &sdk.Output{
					MimeType: "text/plain",
					Content:  "This is an embedded resource",
					URI:      "test://embedded-resource",
				}}, nil
			},
		},
		sdk.PlainTool[None]{
			Name:        "test_multiple_content_types",
			Description: "Returns text, an image and a resource. Call it to test mixed results.",
			Activity:    "Assembling…",
			Run: func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
				res := sdk.Text("This is text content")
				res.Output = &sdk.Output{MimeType: "image/png", Content: redPixelPNG}
				res.Extra = []sdk.Output{{
					MimeType: "text/plain",
					Content:  "This is an embedded resource",
					URI:      "test://embedded-in-multiple",
				}}
				return res, nil
			},
		},
		sdk.PlainTool[None]{
			Name:        "test_tool_with_logging",
			Description: "Logs three entries while it runs. Call it to test log notifications.",
			Activity:    "Logging…",
			Run: func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
				for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
					if i > 0 {
						if err := sleep(tc, step); err != nil {
							return sdk.Result{}, err
						}
					}
					tc.Log(msg)
				}
				return sdk.Text("Tool with logging executed successfully"), nil
			},
		},
		sdk.PlainTool[Regional]{
			Name:        "test_x_mcp_header",
			Description: "Echoes its region, which clients also send in the Mcp-Param-Region header. Call it to test that header.",
			Activity:    "Echoing…",
			Run: func(tc *sdk.ToolContext, in Regional) (sdk.Result, error) {
				return sdk.Text("region: " + in.Region), nil
			},
		},
		sdk.PlainTool[None]{
			Name:        "test_logging_tool",
			Description: "Logs one entry, which a client of protocol 2026-07-28 receives only when its request asked for a log level. Call it to test that.",
			Activity:    "Logging…",
			Run: func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
				tc.Log("test_logging_tool executed")
				return sdk.Text("test_logging_tool executed"), nil
			},
		},
		sdk.PlainTool[None]{
			Name:        "test_tool_with_progress",
			Description: "Reports a title and three statuses while it runs. Call it to test progress notifications.",
			Activity:    "Progressing…",
			Run: func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
				tc.Title("Progress test")
				for _, s := range []string{"Step 1 of 3", "Step 2 of 3", "Step 3 of 3"} {
					tc.Status(s)
					if err := sleep(tc, step); err != nil {
						return sdk.Result{}, err
					}
				}
				return sdk.Text("Progress test completed"), nil
			},
		},
		sdk.PlainTool[None]{
			Name:        "test_error_handling",
			Description: "Always fails. Call it to test error results.",
			Activity:    "Failing…",
			Run: func(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
				return sdk.Result{}, errors.New("this tool intentionally returns an error for testing")
			},
		},
		sdk.PlainTool[Contact]{
			Name:        "json_schema_2020_12_tool",
			Description: "Echoes a contact. Call it to test JSON Schema 2020-12 input schemas.",
			Activity:    "Echoing…",
			Run: func(tc *sdk.ToolContext, in Contact) (sdk.Result, error) {
				return sdk.Text("JSON Schema 2020-12 tool called for " + in.Name), nil
			},
		},
		// The tools that ask (questions.go).
		sdk.PlainTool[SamplingInput]{Name: "test_sampling", Description: "Asks the client's model the prompt. Call it to test sampling.", Activity: "Sampling…", Run: sampling},
		sdk.PlainTool[ElicitationInput]{Name: "test_elicitation", Description: "Asks the person for a username and an email address. Call it to test elicitation.", Activity: "Asking…", Run: elicitation},
		sdk.PlainTool[None]{Name: "test_elicitation_sep1034_defaults", Description: "Asks a form whose fields have defaults. Call it to test SEP-1034.", Activity: "Asking…", Run: askForm(defaultsForm)},
		sdk.PlainTool[None]{Name: "test_elicitation_sep1330_enums", Description: "Asks a form with every kind of choice. Call it to test SEP-1330.", Activity: "Asking…", Run: askForm(enumsForm)},
		sdk.PlainTool[None]{Name: "test_url_elicitation", Description: "Sends the person to a URL. Call it to test URL elicitation.", Activity: "Asking…", Run: urlElicitation},
		sdk.PlainTool[None]{Name: "test_input_required_result_elicitation", Description: "Asks a name. Call it to test input_required with elicitation.", Activity: "Asking…", Run: inputElicitation},
		sdk.PlainTool[None]{Name: "test_input_required_result_sampling", Description: "Asks the model a question. Call it to test input_required with sampling.", Activity: "Sampling…", Run: inputSampling},
		sdk.PlainTool[None]{Name: "test_input_required_result_list_roots", Description: "Reads the client's roots. Call it to test input_required with roots.", Activity: "Listing…", Run: inputRoots},
		sdk.PlainTool[None]{Name: "test_input_required_result_request_state", Description: "Asks a confirmation. Call it to test requestState.", Activity: "Asking…", Run: inputRequestState},
		sdk.PlainTool[None]{Name: "test_input_required_result_tampered_state", Description: "Asks a confirmation. Call it to test tampered requestState.", Activity: "Asking…", Run: inputRequestState},
		sdk.PlainTool[None]{Name: "test_input_required_result_multiple_inputs", Description: "Asks a name, the model and the roots at once. Call it to test several input requests.", Activity: "Asking…", Run: inputMultiple},
		sdk.PlainTool[None]{Name: "test_input_required_result_multi_round", Description: "Asks a name, then a colour. Call it to test several rounds.", Activity: "Asking…", Run: inputMultiRound},
		sdk.PlainTool[None]{Name: "test_missing_capability", Description: "Asks the client's model, and fails when it cannot. Call it to test a missing client capability.", Activity: "Sampling…", Run: missingCapability},
		sdk.PlainTool[None]{Name: "test_streaming_elicitation", Description: "Asks the person a name. Call it to test that a question is an input request, not a request of its own.", Activity: "Asking…", Run: streamingElicitation},
		sdk.PlainTool[None]{Name: "test_input_required_result_capabilities", Description: "Asks what the client can be asked. Call it to test capability checks.", Activity: "Asking…", Run: inputCapabilities},
		// The tools of the tasks extension's scenarios (tasks.go).
		sdk.PlainTool[GreetInput]{Name: "greet", Description: "Greets a name at once; never a task. Call it to test a plain call beside tasks.", Activity: "Greeting…", Run: greet},
		sdk.PlainTool[ComputeInput]{Name: "slow_compute", Description: "Works for the given seconds, as a task when the client supports tasks. Call it to test a task's lifecycle.", Activity: "Computing…", Run: slowCompute, Task: sdk.TaskOptional},
		sdk.PlainTool[ComputeInput]{Name: "rerun_compute", Description: "Works for the given seconds, as a task; safe to run again. Call it to test a task run again by another replica.", Activity: "Computing…", Run: slowCompute, Task: sdk.TaskOptional, Annotations: &sdk.Annotations{ReadOnly: true, Idempotent: true}},
		sdk.PlainTool[None]{Name: "failing_job", Description: "Works a second, then fails; only as a task. Call it to test a tool's error in a task.", Activity: "Working…", Run: failingJob, Task: sdk.TaskRequired},
		sdk.PlainTool[None]{Name: "protocol_error_job", Description: "Crashes its mod. Call it to test a task that fails.", Activity: "Working…", Run: protocolErrorJob, Task: sdk.TaskOptional},
		sdk.PlainTool[DeleteInput]{Name: "confirm_delete", Description: "Asks to confirm a deletion, in a task when the client supports tasks. Call it to test a question in a task.", Activity: "Deleting…", Run: confirmDelete, Task: sdk.TaskOptional, Annotations: &sdk.Annotations{Destructive: true}},
		sdk.PlainTool[None]{Name: "multi_input", Description: "Asks two questions at once, in a task when the client supports tasks. Call it to test answering them one by one.", Activity: "Asking…", Run: multiInput, Task: sdk.TaskOptional},
		sdk.PlainTool[None]{Name: "test_tool_with_task", Description: "Asks a name, then greets it in a task. Call it to test questions before a task.", Activity: "Asking…", Run: toolWithTask, Task: sdk.TaskRequired},
	}},
})

// sleep waits d or until the call is cancelled.
func sleep(tc *sdk.ToolContext, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-tc.Done():
		return tc.Err()
	}
}

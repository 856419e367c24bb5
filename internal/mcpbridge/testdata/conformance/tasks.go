package conformance

import (
	"errors"
	"fmt"
	"time"

	"github.com/modkit/modkit/sdk"
)

// GreetInput is the input of greet.
type GreetInput struct {
	// Name is who is greeted.
	Name string `json:"name"`
}

// ComputeInput is the input of slow_compute.
type ComputeInput struct {
	// Seconds is how long the computation takes.
	Seconds int `json:"seconds,omitempty"`
	// Label names the computation.
	Label string `json:"label,omitempty"`
}

// DeleteInput is the input of confirm_delete.
type DeleteInput struct {
	// Filename is the file to delete.
	Filename string `json:"filename"`
}

func greet(_ *sdk.ToolContext, in GreetInput) (sdk.Result, error) {
	return sdk.Text("Hello, " + in.Name + "!"), nil
}

// slowCompute says what it computes, which makes the call a task, then
// works for the seconds asked.
func slowCompute(tc *sdk.ToolContext, in ComputeInput) (sdk.Result, error) {
	if in.Seconds == 0 {
		return sdk.Text("Computed " + in.Label + " at once"), nil
	}
	tc.Status(fmt.Sprintf("Computing %s for %d s", in.Label, in.Seconds))
	if err := sleep(tc, time.Duration(in.Seconds)*time.Second); err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text(fmt.Sprintf("Computed %s in %d s", in.Label, in.Seconds)), nil
}

func failingJob(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	tc.Status("Working on a job that fails")
	if err := sleep(tc, time.Second); err != nil {
		return sdk.Result{}, err
	}
	return sdk.Result{}, errors.New("the job failed, as it always does")
}

// protocolErrorJob crashes its mod process: the call fails outside the
// tool, which a task reports as failed.
func protocolErrorJob(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	tc.Status("Working on a job that crashes")
	if err := sleep(tc, 200*time.Millisecond); err != nil {
		return sdk.Result{}, err
	}
	panic("protocol_error_job crashes its mod, as it always does")
}

func confirmDelete(tc *sdk.ToolContext, in DeleteInput) (sdk.Result, error) {
	tc.Status("Deleting " + in.Filename)
	a, err := tc.Ask(sdk.Form{Key: "confirm", Message: "Delete " + in.Filename + "?",
		Fields: []sdk.Field{{Name: "confirm", Type: sdk.FieldBoolean, Required: true}}})
	if err != nil {
		return sdk.Result{}, err
	}
	if a.Action != sdk.Accept || !a.Bool("confirm") {
		return sdk.Text("Kept " + in.Filename), nil
	}
	return sdk.Text("Deleted " + in.Filename), nil
}

// nameAndConfirm asks a name and a confirmation, neither required.
func nameAndConfirm(key, message string) sdk.Form {
	return sdk.Form{Key: key, Message: message, Fields: []sdk.Field{
		{Name: "name", Type: sdk.FieldString}, {Name: "confirm", Type: sdk.FieldBoolean}}}
}

func multiInput(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	tc.Status("Asking two questions")
	got, err := tc.AskAll(nameAndConfirm("first", "First: your name?"), nameAndConfirm("second", "Second: your name?"))
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text(fmt.Sprintf("first: %s; second: %s", got[0].(sdk.Answer).String("name"), got[1].(sdk.Answer).String("name"))), nil
}

// toolWithTask asks a name in the call, then greets it in a task.
func toolWithTask(tc *sdk.ToolContext, _ None) (sdk.Result, error) {
	a, err := tc.Ask(nameForm("user_name", "What is your name?"))
	if err != nil {
		return sdk.Result{}, err
	}
	tc.Status("Greeting " + a.String("name"))
	if err := sleep(tc, 500*time.Millisecond); err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("Hello, " + a.String("name") + ", from a task"), nil
}

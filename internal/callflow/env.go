package callflow

import (
	"context"
	"encoding/json"

	"github.com/modkit/modkit/internal/modapi"
)

// Env is what one environment adds to the steps of a call: where the
// tool's mod runs (a host starts, and restarts, its process), the limits
// the mod's code runs under, and the spans around the steps. modtest's is
// the mod's server code in the test's process, with no limits or spans.
type Env interface {
	// Mod returns the mod to call, starting it when needed. The pipeline
	// asks again after each wait on a person, who may take long enough
	// for a host to stop or restart the mod meanwhile.
	Mod(ctx context.Context) (modapi.Mod, error)
	// Failure is the ending of a call that err stopped: Mod's error, a
	// hook's, or the mod's when it could not judge the input.
	Failure(ctx context.Context, err error) Ending
	// Validate judges the input in the mod's place, when handled: a host
	// does for a tool whose mod has no generated validator of it. It
	// returns the problems, else the input with its defaults.
	Validate(input json.RawMessage) (problems []string, withDefaults json.RawMessage, handled bool)
	// Bound runs one step's code in the mod (what names it) under the
	// environment's limit for it.
	Bound(ctx context.Context, what string, run func(ctx context.Context) error) error
	// Handle runs the handler once, under the call's own limit, and
	// returns the mod's response, or ends the call.
	Handle(ctx context.Context, m modapi.Mod, req *modapi.CallRequest) (*modapi.CallResponse, Ending, bool)
	// Step starts a step's span; done ends it.
	Step(ctx context.Context, step Step, detail string) (_ context.Context, done func(StepEnd))
}

// Step names a step of a call, for Env.Step.
type Step int

// The steps Env.Step traces.
const (
	StepValidate Step = iota
	StepHooks
	StepApproval
)

// StepEnd is how a step ended, for its span and the environment's counts.
type StepEnd struct {
	// Ending is the call's, when the step ended it; nil when the call
	// goes on.
	Ending *Ending
	// Refused is set when the step itself refused the call: the input
	// breaks the tool's schema, or a hook refused.
	Refused bool
	// Reason is what the approval step asked the person; "" when the call
	// needed no approval.
	Reason string
}

// Local is the environment of a mod whose code runs in the caller's
// process, with no limits and no spans: sdk/modtest's, which replaces
// Handle to time the handler's runs.
type Local struct {
	// M is the mod.
	M modapi.Mod
}

// Mod returns the mod.
func (l Local) Mod(context.Context) (modapi.Mod, error) { return l.M, nil }

// Failure ends a call that err stopped: cancelled when ctx ended, else
// failed with err.
func (Local) Failure(ctx context.Context, err error) Ending {
	if ctx.Err() != nil {
		return Cancelled(ctx.Err())
	}
	return Failed(err.Error(), err)
}

// Validate leaves the input to the mod's generated validator.
func (Local) Validate(json.RawMessage) ([]string, json.RawMessage, bool) { return nil, nil, false }

// Bound runs the mod's code with no limit.
func (Local) Bound(ctx context.Context, _ string, run func(context.Context) error) error {
	return run(ctx)
}

// Handle runs the handler once.
func (Local) Handle(ctx context.Context, m modapi.Mod, req *modapi.CallRequest) (*modapi.CallResponse, Ending, bool) {
	resp, err := m.CallTool(ctx, req)
	if err != nil {
		return nil, Local{}.Failure(ctx, err), true
	}
	return resp, Ending{}, false
}

// Step traces nothing.
func (Local) Step(ctx context.Context, _ Step, _ string) (context.Context, func(StepEnd)) {
	return ctx, func(StepEnd) {}
}

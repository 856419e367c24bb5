package echomod

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/sdk"
)

// Updates is how many activity updates echo_activity sends.
const Updates = 10

// WaitInput names the file wait_cancel writes when it sees cancellation.
type WaitInput struct {
	// File is the absolute path where the tool writes the wall-clock time, in
	// Unix nanoseconds, at which its context was cancelled.
	File string `json:"file" jsonschema:"minLength=1"`
}

// Mod is the benchmark mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "echomod",
		DisplayName: "Benchmark echo",
		Description: "Tools that do nearly nothing, to measure what a call costs.",
	},
	// wait_cancel writes when it saw the cancellation into the workspace.
	Permissions: sdk.Permissions{WriteWorkspace: true},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[echo.Input]{
			Name:        "echo",
			Description: "Returns its input as JSON. Call it to measure the cost of a round trip.",
			Activity:    "Echoing…",
			Run: func(_ *sdk.ToolContext, in echo.Input) (sdk.Result, error) {
				reply, err := echo.Reply(in)
				return sdk.Text(reply), err
			},
		},
		sdk.PlainTool[echo.Input]{
			Name:        "echo_activity",
			Description: "Returns its input as JSON after ten activity updates. Call it to measure the cost of activity.",
			Activity:    "Echoing with activity…",
			Run: func(tc *sdk.ToolContext, in echo.Input) (sdk.Result, error) {
				for i := range Updates {
					tc.Log("step " + strconv.Itoa(i+1))
				}
				reply, err := echo.Reply(in)
				return sdk.Text(reply), err
			},
		},
		sdk.PlainTool[echo.Input]{
			Name:        "echo_task",
			Description: "Says what it does, then returns its input as JSON; always an MCP task. Call it to measure the cost of a task.",
			Activity:    "Echoing as a task…",
			Task:        sdk.TaskRequired,
			Run: func(tc *sdk.ToolContext, in echo.Input) (sdk.Result, error) {
				tc.Status("echoing")
				reply, err := echo.Reply(in)
				return sdk.Text(reply), err
			},
		},
		sdk.PlainTool[WaitInput]{
			Name:        "wait_cancel",
			Description: "Waits until the call is cancelled and writes the time it noticed to a file. Call it to measure cancellation latency.",
			Activity:    "Waiting for cancellation…",
			Task:        sdk.TaskOptional, // task_cancel_ms cancels it as a task
			Run: func(tc *sdk.ToolContext, in WaitInput) (sdk.Result, error) {
				tc.Status("waiting")
				<-tc.Done()
				seen := time.Now().UnixNano()
				if err := os.WriteFile(in.File, []byte(strconv.FormatInt(seen, 10)), 0o600); err != nil {
					return sdk.Result{}, fmt.Errorf("record cancellation: %w", err)
				}
				return sdk.Text("cancelled"), nil
			},
		},
	}},
})

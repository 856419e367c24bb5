// Package crashy is a test-only mod that misbehaves on request: it crashes,
// hangs, ignores cancellation, floods activity and writes to stdout and
// stderr, so the host's tests can show that none of that breaks the host.
package crashy

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/modkit/modkit/sdk"
)

// StartEnv, when set in the host's environment, makes the mod fail to
// start: "exit" writes to stderr and exits with status 4 before the
// handshake, "hang" never handshakes.
const StartEnv = "MODKIT_TEST_CRASHY_START"

// HookWaits, in crashy_echo's text, makes the mod's hook on tool calls
// wait until it is cancelled.
const HookWaits = "the hook waits"

func init() {
	switch os.Getenv(StartEnv) {
	case "exit":
		fmt.Fprintln(os.Stderr, "crashy refuses to start")
		os.Exit(4)
	case "hang":
		time.Sleep(time.Hour)
	}
}

// EchoInput is what echo repeats.
type EchoInput struct {
	// Text is repeated back.
	Text string `json:"text"`
	// Times repeats the text, at most 5 times.
	Times int `json:"times,omitempty" jsonschema:"minimum=0,maximum=5"`
}

// CrashInput says how to crash.
type CrashInput struct {
	// How is "exit" (os.Exit(3)), "goroutine" (a panic in a goroutine)
	// or "lane" (garbage written on the call lane, where there is one).
	How string `json:"how" jsonschema:"enum=exit,enum=goroutine,enum=lane"`
	// After, when set, names a file in the workspace that "exit" waits
	// for, so that a test can crash the mod once it has seen the status.
	After string `json:"after,omitempty"`
}

// Empty takes no input.
type Empty struct{}

// WaitInput names a file in which the handler records when it saw
// cancellation, as Unix nanoseconds.
type WaitInput struct {
	// Marker is written when the handler sees its context cancelled.
	Marker string `json:"marker,omitempty"`
	// Started is written when the handler starts waiting.
	Started string `json:"started,omitempty"`
}

// FloodInput says how many updates to send.
type FloodInput struct {
	// N is the number of log updates.
	N int `json:"n" jsonschema:"minimum=0,maximum=100000"`
}

// BigInput says how large a result to return.
type BigInput struct {
	// Bytes is the size of the text result.
	Bytes int `json:"bytes" jsonschema:"minimum=0"`
}

// Report is the rendered tool's result.
type Report struct {
	Words int    `json:"words"`
	Title string `json:"title"`
}

// ReportInput is the rendered tool's input.
type ReportInput struct {
	// Title names the report.
	Title string `json:"title"`
}

// Mod is the crashy test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "crashy",
		DisplayName: "Crashy",
		Description: "Test mod that misbehaves on request.",
	},
	// crashy_wait writes its marker files into the workspace; StartEnv
	// picks how a start fails.
	Permissions: sdk.Permissions{WriteWorkspace: true, Env: []string{StartEnv}},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[EchoInput]{
			Name:        "crashy_echo",
			Description: "Repeats text. Call it to check the host works.",
			Activity:    "Echoing…",
			Run: func(tc *sdk.ToolContext, in EchoInput) (sdk.Result, error) {
				tc.Title("Echo")
				n := max(in.Times, 1)
				out := strings.TrimSuffix(strings.Repeat(in.Text+" ", n), " ")
				res := sdk.Text(out)
				res.Output = &sdk.Output{MimeType: "text/plain", Content: out}
				res.Extra = []sdk.Output{{MimeType: "application/json", Content: `{"today":"` + tc.Today() + `","session":"` + tc.Session().ID + `","call":"` + tc.CallID() + `"}`}}
				return res, nil
			},
		},
		sdk.PlainTool[CrashInput]{
			Name:        "crashy_crash",
			Description: "Crashes the mod process. Call it to test crash handling.",
			Activity:    "Crashing…",
			Run: func(tc *sdk.ToolContext, in CrashInput) (sdk.Result, error) {
				tc.Status("about to crash")
				switch in.How {
				case "goroutine":
					go func() { panic("crashy goroutine panic") }()
					time.Sleep(time.Minute)
				case "lane":
					if err := scribbleOnLane(); err != nil {
						return sdk.Result{}, err
					}
					<-tc.Context().Done()
				default:
					if in.After != "" {
						waitFor(filepath.Join(tc.Session().Workspace, filepath.Base(in.After)))
					} else {
						time.Sleep(10 * time.Millisecond)
					}
					os.Exit(3)
				}
				return sdk.Text("unreachable"), nil
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "crashy_panic",
			Description: "Panics in the handler. Call it to test panic recovery.",
			Activity:    "Panicking…",
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				panic("kaboom")
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "crashy_fail",
			Description: "Returns an error. Call it to test failures.",
			Activity:    "Failing…",
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				return sdk.Result{}, errors.New("nothing to do here")
			},
		},
		sdk.PlainTool[WaitInput]{
			Name:        "crashy_wait",
			Description: "Waits until cancelled. Call it to test cancellation.",
			Activity:    "Waiting…",
			Run: func(tc *sdk.ToolContext, in WaitInput) (sdk.Result, error) {
				tc.Status("waiting")
				if in.Started != "" {
					os.WriteFile(in.Started, []byte("waiting"), 0o644)
				}
				<-tc.Done()
				if in.Marker != "" {
					now := time.Now().UnixNano()
					os.WriteFile(in.Marker, []byte(strconv.FormatInt(now, 10)), 0o644)
				}
				return sdk.Result{}, tc.Err()
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "crashy_hang",
			Description: "Hangs, ignoring cancellation. Call it to test the grace period.",
			Activity:    "Hanging…",
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				tc.Status("hanging")
				time.Sleep(time.Hour)
				return sdk.Text("woke up"), nil
			},
		},
		sdk.PlainTool[FloodInput]{
			Name:        "crashy_flood",
			Description: "Sends a title, N log entries and a status. Call it to test activity streaming.",
			Activity:    "Flooding…",
			Run: func(tc *sdk.ToolContext, in FloodInput) (sdk.Result, error) {
				tc.Title("Flood")
				for i := range in.N {
					tc.Log("entry " + strconv.Itoa(i+1))
				}
				tc.Status("done")
				return sdk.Text(fmt.Sprintf("sent %d", in.N)), nil
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "crashy_noisy",
			Description: "Writes to stdout, stderr and the log. Call it to test output handling.",
			Activity:    "Making noise…",
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				fmt.Println("crashy says hello on stdout")
				fmt.Fprintln(os.Stderr, "crashy says hello on stderr")
				tc.Logger().Warn("crashy logs a warning", "n", 7)
				return sdk.Text("made some noise"), nil
			},
		},
		sdk.PlainTool[BigInput]{
			Name:        "crashy_big",
			Description: "Returns a large result. Call it to test the result cap.",
			Activity:    "Growing…",
			Run: func(tc *sdk.ToolContext, in BigInput) (sdk.Result, error) {
				return sdk.Text(strings.Repeat("x", in.Bytes)), nil
			},
		},
		sdk.PlainTool[Empty]{
			Name:        "crashy_blocked",
			Description: "Is always blocked by the mod's hook. Call it to test hooks.",
			Activity:    "Trying…",
			Run: func(tc *sdk.ToolContext, in Empty) (sdk.Result, error) {
				return sdk.Text("the hook let me through"), nil
			},
		},
		sdk.RenderedTool[ReportInput, Report]{
			Name:        "crashy_report",
			Description: "Returns a typed report with a view. Call it to test rendered tools.",
			Activity:    "Reporting…",
			Run: func(tc *sdk.ToolContext, in ReportInput) (Report, error) {
				return Report{Words: len(strings.Fields(in.Title)), Title: in.Title}, nil
			},
			View: sdk.View[ReportInput, Report]{
				Text: func(r Report) string { return fmt.Sprintf("%q has %d words", r.Title, r.Words) },
				Render: func(s sdk.ViewState[ReportInput, Report]) string {
					switch s.Phase {
					case sdk.PhaseCompleted:
						return "<p>" + html.EscapeString(s.Result.Title) + ": " + strconv.Itoa(s.Result.Words) + " words</p>"
					case sdk.PhaseFailed:
						return "<p class=error>" + html.EscapeString(s.Error) + "</p>"
					default:
						if s.Input.Title == "hang" {
							time.Sleep(time.Hour) // a view cannot be cancelled
						}
						return "<p>" + string(s.Phase) + " " + html.EscapeString(s.Input.Title) + "</p>"
					}
				},
			},
		},
		actTool,
	}},
	Commands: []sdk.Command{{
		ID:    "crashy.hello",
		Title: "Say hello",
		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			if len(args) == 0 {
				return "hello on " + env.Today, nil
			}
			return "hello " + string(args), nil
		},
	}, {
		ID:     "crashy.wait",
		Title:  "Wait until cancelled",
		Scopes: []string{"crashy.admin"},
		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			<-ctx.Done()
			return "", ctx.Err()
		},
	}, {
		ID:    "crashy.hang",
		Title: "Hang, ignoring cancellation",
		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			time.Sleep(time.Hour)
			return "woke up", nil
		},
	}, {
		ID:    "crashy.guarded",
		Title: "Guarded by a hook that waits until cancelled",
		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			return "passed the guard", nil
		},
	}, {
		ID:    "crashy.panicking_command",
		Title: "Panics",
		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			panic("command kaboom")
		},
	}, {
		ID:    "crashy.oversized",
		Title: "Returns as many bytes as its argument says",
		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			var n int
			if err := json.Unmarshal(args, &n); err != nil {
				return "", fmt.Errorf("want a number of bytes: %w", err)
			}
			return strings.Repeat("x", n), nil
		},
	}, {
		ID:    "crashy.refused",
		Title: "Always refused by a hook",
		Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
			return "ran anyway", nil
		},
	}},
	SlashCommands: []sdk.SlashCommand{{
		ID:          "shout",
		Description: "Repeats the text in capitals.",
		Scopes:      []string{"crashy.shout"},
		Run: func(ctx context.Context, env *sdk.Env, text string) (string, error) {
			return strings.ToUpper(text), nil
		},
	}},
	Hooks: []sdk.Hook{{
		BeforeAction: sdk.ActionToolCall,
		Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
			switch {
			case a.Tool == "crashy_blocked":
				return errors.New("crashy_blocked is never allowed")
			case a.Tool == "crashy_echo" && strings.Contains(string(a.Input), HookWaits):
				<-ctx.Done() // until the host's hook timeout
				return ctx.Err()
			}
			return nil
		},
	}, {
		BeforeAction: "command:crashy.refused",
		Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
			return errors.New("not today")
		},
	}, {
		BeforeAction: "command:crashy.guarded",
		Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
			<-ctx.Done()
			return ctx.Err()
		},
	}},
	Agents: []sdk.Agent{{
		Name:        "echoer",
		Description: "May only echo.",
		Tools:       []string{"crashy_echo"},
	}},
})

// waitFor returns once the file at path exists, or after a minute.
func waitFor(path string) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
}

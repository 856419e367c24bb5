package sdk_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// SaveInput is the input of the save tool.
type SaveInput struct {
	// Path is a file relative to the workspace.
	Path string `json:"path" jsonschema:"minLength=1"`
}

// A handler asks a person mid-call with a Form. The first run reaches the
// question and ends with sdk.ErrAsking; once the person answers, the
// handler runs again from the start and the question returns the answer.
// So ask first and act after. In a test, Options.Answers answers by key.
func Example_questions() {
	save := sdk.PlainTool[SaveInput]{
		Name:        "files_save",
		Description: "Saves a draft to a file. Call this when asked to save the draft.",
		Activity:    "Saving…",
		Run: func(tc *sdk.ToolContext, in SaveInput) (sdk.Result, error) {
			choice, err := tc.Ask(sdk.Form{
				Key:     "existing",
				Message: in.Path + " exists. What should happen to it?",
				Fields: []sdk.Field{{Name: "action", Required: true, Default: "keep_both", Options: []sdk.Option{
					{Value: "overwrite", Title: "Overwrite it"},
					{Value: "keep_both", Title: "Keep both"},
				}}},
			})
			if err != nil {
				return sdk.Result{}, err // sdk.ErrAsking ends this run
			}
			if !choice.Accepted() { // declined, or dismissed (sdk.Cancel)
				return sdk.Text("Nothing was saved: the person said no."), nil
			}
			return sdk.Text("Saved " + in.Path + " (" + choice.String("action") + ")."), nil
		},
	}
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "files", Description: "Saves files."},
		AI:       sdk.AI{Tools: []sdk.Tool{save}},
	})}

	for _, answer := range []sdk.Answer{
		{Action: sdk.Accept, Values: map[string]any{"action": "overwrite"}},
		{Action: sdk.Decline},
	} {
		out, err := modtest.Call(g, "files_save", `{"path": "draft.md"}`,
			&modtest.Options{Answers: map[string]any{"existing": answer}})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s after %d runs: %s\n", out.Status, out.Runs, out.Text)
	}
	// Output:
	// completed after 2 runs: Saved draft.md (overwrite).
	// completed after 2 runs: Nothing was saved: the person said no.
}

// When nobody can be asked (an MCP client without elicitation, modhost
// call without a terminal, a test without an answer), a question returns
// an error wrapping sdk.ErrCannotAsk at once: carry on without the answer,
// or return the error for the model to read.
func Example_cannotAsk() {
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "signin", Description: "Signs in."},
		AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[struct{}]{
			Name:        "signin_start",
			Description: "Signs the person in to the calendar. Call this before reading the calendar.",
			Activity:    "Signing in…",
			Run: func(tc *sdk.ToolContext, _ struct{}) (sdk.Result, error) {
				_, err := tc.AskURL(sdk.URLQuestion{Key: "login", Message: "Sign in to your calendar.", URL: "https://calendar.example/login"})
				if errors.Is(err, sdk.ErrCannotAsk) {
					return sdk.Text("Sign in at https://calendar.example/login, then call me again."), nil
				}
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.Text("Signed in."), nil
			},
		}}},
	})}

	out, err := modtest.Call(g, "signin_start", `{}`, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Status, out.Text)
	// Output:
	// completed Sign in at https://calendar.example/login, then call me again.
}

// A tool that changes what a person cares about asks for approval first.
// The Ask rule runs in the mod on the validated input and returns what the
// person reads; "" runs the call without asking, and a constant Reason
// asks on every call. Declined, the call ends denied and Run never runs.
func Example_approval() {
	dir, err := os.MkdirTemp("", "approval")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte("old"), 0o644); err != nil {
		fmt.Println(err)
		return
	}

	save := sdk.PlainTool[SaveInput]{
		Name:        "drafts_save",
		Description: "Saves an empty draft. Call this when asked to start a draft.",
		Activity:    "Saving…",
		Annotations: &sdk.Annotations{Destructive: true, Idempotent: true},
		Approval: &sdk.Approval[SaveInput]{Ask: func(tc *sdk.ToolContext, in SaveInput) (string, error) {
			ws, err := tc.Workspace()
			if err != nil {
				return "", err
			}
			if _, err := ws.Stat(in.Path); err == nil {
				return "Overwrite " + in.Path + "; its current text is lost.", nil
			}
			return "", nil // a new file: no need to ask
		}},
		Run: func(tc *sdk.ToolContext, in SaveInput) (sdk.Result, error) {
			return sdk.Text("Saved " + in.Path + "."), nil
		},
	}
	g := &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "drafts", Description: "Keeps drafts."},
		AI:       sdk.AI{Tools: []sdk.Tool{save}},
	})}

	for _, path := range []string{"new.md", "plan.md"} {
		out, err := modtest.Call(g, "drafts_save", `{"path": "`+path+`"}`,
			&modtest.Options{Workspace: dir, Approver: modtest.Deny})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s %q %s\n", out.Status, out.ApprovalReason, out.Text)
	}
	// Output:
	// completed "" Saved new.md.
	// denied "Overwrite plan.md; its current text is lost." The person declined this call, so drafts_save did not run. They were asked: Overwrite plan.md; its current text is lost.
}

// A mod's process reads its workspace and writes its temporary directory;
// Permissions declare more, as constants people read before installing.
// Outside them an operation fails with fs.ErrPermission (the kernel
// enforces it on Linux); a handler that returns it, wrapped with %w, gives
// the model a sentence naming the missing permission. sdk/modtest runs
// handlers unconfined, so this example is compiled only.
func Example_permissions() {
	_ = sdk.DefineMod(sdk.Mod{
		Metadata: sdk.Metadata{ID: "builder", Description: "Builds the workspace's Go code."},
		Permissions: sdk.Permissions{
			WriteWorkspace: true,                                     // create, change, remove files
			Connect:        []string{"proxy.golang.org:443"},         // TCP endpoints, or sdk.Any
			Run:            []string{"go"},                           // programs, by name or path
			Read:           []string{"$GOROOT", "$GOMODCACHE"},       // further paths
			Env:            []string{"GOFLAGS", "GOPROXY", "GOPATH"}, // variables passed on
		},
		AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[struct{}]{
			Name:        "builder_clean",
			Description: "Removes the build output. Call this when asked to clean.",
			Activity:    "Cleaning…",
			Run: func(tc *sdk.ToolContext, _ struct{}) (sdk.Result, error) {
				ws, err := tc.Workspace()
				if err != nil {
					return sdk.Result{}, err
				}
				if err := ws.RemoveAll("bin"); err != nil {
					if errors.Is(err, fs.ErrPermission) {
						return sdk.Result{}, fmt.Errorf("removing bin: %w", err)
					}
					return sdk.Result{}, err
				}
				return sdk.Text("Removed bin."), nil
			},
		}}},
	})
}

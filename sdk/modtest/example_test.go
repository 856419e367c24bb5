package modtest_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/modkit/modkit/examples/dependencies"
	"github.com/modkit/modkit/examples/research"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// A tool that asks for a person's approval gets the answer from
// Options.Approver; declined, it never runs. In a test, modtest.Run takes
// the *testing.T and fails it on a tool that does not exist.
func Example_approval() {
	dir, err := os.MkdirTemp("", "notes")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	for _, approver := range []modtest.Approver{modtest.Deny, modtest.Approve} {
		out, err := modtest.Call(research.Modkit(), "research_save_note", `{"path":"today.md","text":"# Findings"}`,
			&modtest.Options{Workspace: dir, Approver: approver})
		if err != nil {
			panic(err)
		}
		fmt.Println(out.Status, "-", out.ApprovalReason)
	}
	// Output:
	// denied - Create today.md in the workspace with a note of 10 bytes.
	// completed - Create today.md in the workspace with a note of 10 bytes.
}

// A tool the client application runs is answered by Options.Client; the
// client gets the validated input.
func Example_client() {
	out, err := modtest.Call(dependencies.Modkit(), "dependencies_modules", `{}`, &modtest.Options{
		Client: &modtest.Client{Answers: []sdk.ClientAnswer{{Text: "1 module: example.com/app."}}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Status, string(out.ClientInput), out.Text)
	// Output:
	// completed {} 1 module: example.com/app.
}

// A completed call's client actions are in Outcome.Actions; in a test,
// Outcome.WantActions compares them with those built by the kinds' New.
func Example_clientActions() {
	dir, err := os.MkdirTemp("", "ws")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("one\ntwo\n"), 0o644); err != nil {
		panic(err)
	}
	out, err := modtest.Call(research.Modkit(), "research_open_file", `{"path":"a.md","line":2}`,
		&modtest.Options{Workspace: dir})
	if err != nil {
		panic(err)
	}
	for _, a := range out.Actions {
		fmt.Println(a.Kind, string(a.Params))
	}
	// Output:
	// open_file {"path":"a.md","line":2}
}

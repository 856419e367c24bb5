package research

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// OpenFile is the client action research_open_file emits: the client
// application opens the file at the line for the person.
var OpenFile = sdk.ClientActionKind[OpenFileParams]{
	Kind:        "open_file",
	Description: "Opens a file of the workspace in the client's editor, scrolled to a line, for the person to read.",
}

// OpenFileParams says which file the client opens, and at which line.
type OpenFileParams struct {
	// Path is the file, slash-separated, relative to the workspace root.
	Path string `json:"path" jsonschema:"minLength=1"`
	// Line is the line to show, from 1.
	Line int `json:"line" jsonschema:"minimum=1"`
}

// OpenFileInput says which file research_open_file shows the person.
type OpenFileInput struct {
	// Path is the file, relative to the workspace root, as
	// research_search_workspace reports it.
	Path string `json:"path" jsonschema:"minLength=1,maxLength=4096"`
	// Line is the line to show, from 1; the first line when absent.
	Line int `json:"line,omitempty" jsonschema:"minimum=1"`
}

// Validate checks that path stays inside the workspace.
func (in OpenFileInput) Validate() error {
	if msg := checkRelative(in.Path); msg != "" {
		return &sdk.InputError{Problems: []string{"/path: " + msg}}
	}
	return nil
}

// openFile checks that the file is a readable text file of the workspace
// with the line, and asks the client to show it there. Nothing happens on
// the mod's side; a file that cannot be shown is explained, not opened.
func openFile(tc *sdk.ToolContext, in OpenFileInput) (sdk.Result, error) {
	root, err := tc.Workspace()
	if err != nil {
		return sdk.Result{}, err
	}
	name := path.Clean(strings.ReplaceAll(in.Path, `\`, "/"))
	line := max(in.Line, 1)
	data, why := readRegular(root, name)
	switch {
	case why != "":
		return sdk.Text(fmt.Sprintf("Nothing was opened: %s %s.", name, why)), nil
	case bytes.IndexByte(data, 0) >= 0:
		return sdk.Text(fmt.Sprintf("Nothing was opened: %s is a binary file.", name)), nil
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(data) == 0 {
		lines = nil
	}
	if line > len(lines) {
		return sdk.Text(fmt.Sprintf("Nothing was opened: %s has %d lines, so it has no line %d.", name, len(lines), line)), nil
	}
	text := strings.TrimSpace(strings.TrimSuffix(lines[line-1], "\r"))
	return sdk.Result{
		Text:    fmt.Sprintf("Asked the client to show %s at line %d to the person; the line reads: %s", name, line, excerpt(text, 0)),
		Actions: []sdk.ClientAction{OpenFile.New(OpenFileParams{Path: name, Line: line})},
	}, nil
}

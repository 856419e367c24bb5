package research

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/modkit/modkit/sdk"
)

// summarize is the /summarize slash command, and the MCP prompt of the same
// name: a workspace file, embedded, and what to do with it.
var summarize = sdk.SlashCommand{
	ID:          "summarize",
	Title:       "Summarize a file",
	Description: "Puts a text file of the workspace before the model and asks for a summary, with an optional focus: /summarize <path> [focus].",
	Arguments: []sdk.PromptArgument{
		{Name: "path", Description: "The file, a slash path relative to the workspace root, like docs/design.md.", Required: true},
		{Name: "focus", Description: "What the summary should dwell on, like \"open questions\"."},
	},
	Prompt:   summarizePrompt,
	Complete: completePath,
}

// summarizePrompt embeds the file at args["path"] and asks for its summary.
func summarizePrompt(_ context.Context, env *sdk.Env, args map[string]string) ([]sdk.PromptMessage, error) {
	name := args["path"]
	if why := checkRelative(name); why != "" {
		return nil, errors.New("path " + why)
	}
	root, err := env.Session.OpenWorkspace()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	data, why := readRegular(root, name)
	if why != "" {
		return nil, fmt.Errorf("%s %s", name, why)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%s is not a text file", name)
	}
	ask := "Summarize the file above in a few sentences, then list its main points."
	if focus := strings.TrimSpace(args["focus"]); focus != "" {
		ask = "Summarize the file above in a few sentences, dwelling on " + focus + "."
	}
	return []sdk.PromptMessage{
		{Resource: &sdk.EmbeddedResource{URI: fileURI(env.Session.Workspace, name), ResourceContents: sdk.ResourceContents{
			MIMEType: mimeOf(name), Text: string(data),
		}}},
		sdk.UserText(ask),
	}, nil
}

// fileURI is the file: URI of name in the workspace ws.
func fileURI(ws, name string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(ws, filepath.FromSlash(name)))}).String()
}

func mimeOf(name string) string {
	switch path.Ext(name) {
	case ".md":
		return "text/markdown"
	case ".go":
		return "text/x-go"
	}
	return "text/plain"
}

// maxCompletions is how many paths a completion lists.
const maxCompletions = 50

// completePath suggests the workspace's files whose slash path starts with
// what has been typed, skipping the directories search skips.
func completePath(_ context.Context, env *sdk.Env, req sdk.CompletionRequest) (sdk.Completion, error) {
	if req.Argument != "path" {
		return sdk.Completion{}, nil
	}
	names, more, err := workspaceFiles(env, req.Value, maxCompletions, func(string) bool { return true })
	return sdk.Completion{Values: names, HasMore: more}, err
}

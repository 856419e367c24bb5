package dependencies

import (
	"context"
	"errors"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// depsArgs are /deps's arguments: what a person types after it, and the
// prompt's arguments.
var depsArgs = []sdk.PromptArgument{{
	Name:        "package",
	Description: "The import path of the package, like example.com/app/store.",
	Required:    true,
}}

// depsPrompt is /deps as an MCP prompt: the package's dependents, read from
// the workspace, and a request to weigh a change against them.
func depsPrompt(ctx context.Context, env *sdk.Env, args map[string]string) ([]sdk.PromptMessage, error) {
	listing, err := depsSlash(ctx, env, args["package"])
	if err != nil {
		return nil, err
	}
	return []sdk.PromptMessage{
		sdk.UserText(listing),
		sdk.UserText("I am about to change the API of " + strings.TrimSpace(args["package"]) +
			". Using the dependents above, tell me which packages a change would break and what to check in each."),
	}, nil
}

// maxCompletions is how many import paths a completion lists.
const maxCompletions = 50

// completePackage suggests the import paths of the workspace's packages,
// and of what they import, that start with what has been typed.
func completePackage(ctx context.Context, env *sdk.Env, req sdk.CompletionRequest) (sdk.Completion, error) {
	if req.Argument != "package" {
		return sdk.Completion{}, nil
	}
	root, err := env.Session.OpenWorkspace()
	if err != nil {
		return sdk.Completion{}, err
	}
	defer root.Close()
	g, err := loadGraph(ctx, root, false, discard{})
	if err != nil {
		return sdk.Completion{}, errors.New(strings.TrimSpace(err.Error()))
	}
	var c sdk.Completion
	for _, p := range g.candidates() {
		if !strings.HasPrefix(p, req.Value) {
			continue
		}
		c.Total++
		if len(c.Values) < maxCompletions {
			c.Values = append(c.Values, p)
		}
	}
	c.HasMore = c.Total > len(c.Values)
	return c, nil
}

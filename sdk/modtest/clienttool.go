package modtest

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// DefaultClientTimeout is a host's default wait for a client's answer,
// named in the failure of a call a scripted client never answers.
const DefaultClientTimeout = 5 * time.Minute

// Client is a scripted client application, for tools that run in the
// client (sdk.PlainTool.Client): it answers every call of such a tool with
// Answers, in order, through a host's rules, once the input is valid, the
// hooks (with Options.Hooks) let the call through and Options.Approver
// approved it when the tool needs approval. The first answer is the
// call's one output, a success or an error; later ones are dropped and
// kept in Outcome.DroppedAnswers. With no answers the client never
// answers, and the call fails at once as a host's does when its client
// timeout passes.
type Client struct {
	// Answers are the client's replies to each call.
	Answers []sdk.ClientAnswer
	// Timeout is the host's wait for an answer, named in the failure of a
	// call never answered; DefaultClientTimeout when 0.
	Timeout time.Duration
}

// toolManifest returns the manifest entry of the named tool and the check
// of its client actions; a mod put together without modgen, with no
// manifest, has only the tool's name, and its actions are not checked.
func toolManifest(g *sdk.Generated, name string) (manifest.Tool, func([]sdk.ClientAction) string, error) {
	if len(g.Manifest) > 0 {
		var m manifest.Manifest
		if err := json.Unmarshal(g.Manifest, &m); err != nil {
			return manifest.Tool{}, nil, fmt.Errorf("mod %s: manifest: %w", modID(g), err)
		}
		for _, t := range m.Tools {
			if t.Name == name {
				return t, callflow.ActionCheck(&m, t), nil
			}
		}
	}
	return manifest.Tool{Name: name}, nil, nil
}

// resultCheck judges a client's typed result against t's result schema,
// as a host does.
func resultCheck(g *sdk.Generated, t manifest.Tool) func([]byte) ([]string, error) {
	return func(result []byte) ([]string, error) {
		s, err := schemacheck.ToolResult(modID(g), t)
		if err != nil {
			return nil, err
		}
		return s.Check(result), nil
	}
}

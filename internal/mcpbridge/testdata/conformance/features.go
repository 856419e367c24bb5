package conformance

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modkit/modkit/sdk"
)

// The URIs the suite reads and subscribes to.
const (
	watchedURI   = "test://watched-resource"
	dataTemplate = "test://template/{id}/data"
)

// watchInterval is how often the watched resource changes.
const watchInterval = time.Second

// resources are the suite's fixed resources.
var resources = []sdk.Resource{
	{
		URI:         "test://static-text",
		Name:        "static_text",
		Title:       "Static text",
		Description: "A fixed text resource.",
		MIMEType:    "text/plain",
		Read: func(context.Context, *sdk.Env, string) (sdk.ResourceContents, error) {
			return sdk.ResourceContents{Text: "This is the content of the static text resource."}, nil
		},
	},
	{
		URI:         "test://static-binary",
		Name:        "static_binary",
		Title:       "Static binary",
		Description: "A 1x1 red PNG.",
		MIMEType:    "image/png",
		Read: func(context.Context, *sdk.Env, string) (sdk.ResourceContents, error) {
			return sdk.ResourceContents{Blob: redPixel()}, nil
		},
	},
	{
		URI:         watchedURI,
		Name:        "watched_resource",
		Title:       "Watched resource",
		Description: "A text that changes every second, for subscriptions.",
		MIMEType:    "text/plain",
		Read: func(context.Context, *sdk.Env, string) (sdk.ResourceContents, error) {
			return sdk.ResourceContents{Text: fmt.Sprintf("Watched resource content, revision %d", revision())}, nil
		},
	},
}

// templates are the suite's resource templates.
var templates = []sdk.ResourceTemplate{{
	URITemplate: dataTemplate,
	Name:        "template_data",
	Title:       "Data by id",
	Description: "JSON data for an id, which the URI carries.",
	MIMEType:    "application/json",
	Read: func(_ context.Context, _ *sdk.Env, _ string, vars map[string]string) (sdk.ResourceContents, error) {
		id := vars["id"]
		if id == "missing" {
			return sdk.ResourceContents{}, fmt.Errorf("no data for id %s: %w", id, sdk.ErrResourceNotFound)
		}
		return sdk.ResourceContents{Text: fmt.Sprintf(`{"id":%q,"templateTest":true,"data":"Data for ID: %s"}`, id, id)}, nil
	},
	Complete: func(_ context.Context, _ *sdk.Env, req sdk.CompletionRequest) (sdk.Completion, error) {
		return startingWith([]string{"1", "12", "123", "42"}, req.Value), nil
	},
}}

// prompts are the suite's prompts: slash commands a person could type too.
var prompts = []sdk.SlashCommand{
	{
		ID:          "test_simple_prompt",
		Description: "A prompt with no arguments.",
		Prompt: func(context.Context, *sdk.Env, map[string]string) ([]sdk.PromptMessage, error) {
			return []sdk.PromptMessage{sdk.UserText("This is a simple prompt for testing.")}, nil
		},
	},
	{
		ID:          "test_prompt_with_arguments",
		Description: "A prompt with two required arguments.",
		Arguments: []sdk.PromptArgument{
			{Name: "arg1", Description: "First test argument", Required: true},
			{Name: "arg2", Description: "Second test argument", Required: true},
		},
		Prompt: func(_ context.Context, _ *sdk.Env, args map[string]string) ([]sdk.PromptMessage, error) {
			return []sdk.PromptMessage{sdk.UserText(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args["arg1"], args["arg2"]))}, nil
		},
		Complete: func(_ context.Context, _ *sdk.Env, req sdk.CompletionRequest) (sdk.Completion, error) {
			values := map[string][]string{
				"arg1": {"test", "testing", "test_value", "other"},
				"arg2": {"world", "word"},
			}
			return startingWith(values[req.Argument], req.Value), nil
		},
	},
	{
		ID:          "test_prompt_with_embedded_resource",
		Description: "A prompt that embeds a resource.",
		Arguments:   []sdk.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}},
		Prompt: func(_ context.Context, _ *sdk.Env, args map[string]string) ([]sdk.PromptMessage, error) {
			return []sdk.PromptMessage{
				{Resource: &sdk.EmbeddedResource{URI: args["resourceUri"], ResourceContents: sdk.ResourceContents{
					MIMEType: "text/plain", Text: "Embedded resource content for testing.",
				}}},
				sdk.UserText("Please process the embedded resource above."),
			}, nil
		},
	},
	{
		ID:          "test_input_required_result_prompt",
		Description: "A prompt that asks the person for its context.",
		Prompt: func(_ context.Context, env *sdk.Env, _ map[string]string) ([]sdk.PromptMessage, error) {
			a, err := env.Ask(sdk.Form{Key: "user_context", Message: "What context should the prompt use?",
				Fields: []sdk.Field{{Name: "context", Type: sdk.FieldString, Required: true}}})
			if err != nil {
				return nil, err
			}
			if !a.Accepted() {
				return []sdk.PromptMessage{sdk.UserText("Answer without any particular context.")}, nil
			}
			return []sdk.PromptMessage{sdk.UserText("Answer in this context: " + a.String("context"))}, nil
		},
	},
	{
		ID:          "test_prompt_with_image",
		Description: "A prompt with an image.",
		Prompt: func(context.Context, *sdk.Env, map[string]string) ([]sdk.PromptMessage, error) {
			return []sdk.PromptMessage{
				{Image: &sdk.Image{MIMEType: "image/png", Data: redPixel()}},
				sdk.UserText("Please analyze the image above."),
			}, nil
		},
	},
}

// watched is the watched resource's revision.
var watched atomic.Int64

func revision() int64 { return watched.Load() }

// activate changes the watched resource every interval, for as long as the
// mod runs.
func activate(_ context.Context, env *sdk.Env) error {
	go func() {
		t := time.NewTicker(watchInterval)
		defer t.Stop()
		for range t.C {
			watched.Add(1)
			env.ResourceUpdated(watchedURI)
		}
	}()
	return nil
}

func redPixel() []byte {
	b, _ := base64.StdEncoding.DecodeString(redPixelPNG)
	return b
}

// startingWith returns the values that start with prefix.
func startingWith(values []string, prefix string) sdk.Completion {
	out := slices.DeleteFunc(slices.Clone(values), func(v string) bool { return !strings.HasPrefix(v, prefix) })
	return sdk.Completion{Values: out, Total: len(out)}
}

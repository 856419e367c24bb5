package modtest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/mcpbridge/testdata/conformance"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

func TestReadResource(t *testing.T) {
	g := conformance.Modkit()
	c, err := modtest.ReadResource(t, g, "test://template/42/data", nil)
	if err != nil || c.Text != `{"id":"42","templateTest":true,"data":"Data for ID: 42"}` || c.MIMEType != "application/json" {
		t.Errorf("template: got %+v, %v", c, err)
	}
	c, err = modtest.ReadResource(t, g, "test://static-binary", nil)
	if err != nil || len(c.Blob) == 0 || c.MIMEType != "image/png" {
		t.Errorf("binary: got %+v, %v", c, err)
	}
	for _, uri := range []string{"test://nowhere", "test://template/missing/data"} {
		if _, err := modtest.ReadResource(t, g, uri, nil); !errors.Is(err, sdk.ErrResourceNotFound) {
			t.Errorf("%s: got %v, want sdk.ErrResourceNotFound", uri, err)
		}
	}
	if _, err := modtest.ReadResource(t, g, "test://static-text", &modtest.Options{MaxResultBytes: 10}); err == nil {
		t.Error("over the cap: got no error")
	}
}

func TestGetPromptAndComplete(t *testing.T) {
	g := conformance.Modkit()
	msgs, err := modtest.GetPrompt(t, g, "test_prompt_with_image", nil, nil)
	if err != nil || len(msgs) != 2 || msgs[0].Image == nil || msgs[1].Text != "Please analyze the image above." {
		t.Errorf("image prompt: got %+v, %v", msgs, err)
	}
	c, err := modtest.Complete(t, g, "test_prompt_with_arguments", "", sdk.CompletionRequest{Argument: "arg2", Value: "wo"}, nil)
	if err != nil || len(c.Values) != 2 {
		t.Errorf("complete: got %+v, %v", c, err)
	}
}

// TestGetPromptAsks answers a prompt's question from Options.Answers, as
// a tool call's; without answers the question cannot be asked.
func TestGetPromptAsks(t *testing.T) {
	g := conformance.Modkit()
	const id = "test_input_required_result_prompt"
	msgs, err := modtest.GetPrompt(t, g, id, nil, &modtest.Options{Answers: map[string]any{"user_context": sdk.Answer{Action: sdk.Accept, Values: map[string]any{"context": "tests"}}}})
	if err != nil || len(msgs) != 1 || msgs[0].Text != "Answer in this context: tests" {
		t.Errorf("answered: got %+v, %v", msgs, err)
	}
	if _, err := modtest.GetPrompt(t, g, id, nil, nil); err == nil || !strings.Contains(err.Error(), "could not be asked") {
		t.Errorf("no answers: got %v, want the question could not be asked", err)
	}
	if _, err := modtest.GetPrompt(t, g, id, nil, &modtest.Options{Answers: map[string]any{}}); err == nil || !strings.Contains(err.Error(), `no answer in Options.Answers for question "user_context"`) {
		t.Errorf("no answer for the key: got %v", err)
	}
}

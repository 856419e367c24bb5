package host_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge/testdata/conformance"
	"github.com/modkit/modkit/sdk"
)

var conformanceDir = filepath.Join("..", "internal", "mcpbridge", "testdata", "conformance")

// loadFixture loads the MCP conformance fixture, whose resources, prompts
// and completions are the suite's, to run in the test's process.
func loadFixture(t *testing.T) *testHost {
	t.Helper()
	h := load(t, nil, conformanceDir, crashyDir)
	if err := host.RunInProcess(h.Host, conformance.Modkit()); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestResourcesListedAndRead(t *testing.T) {
	t.Parallel()
	h := loadFixture(t)
	ctx := context.Background()
	var uris []string
	for _, r := range h.Resources() {
		uris = append(uris, r.Mod+" "+r.URI)
	}
	if want := []string{"conformance test://static-binary", "conformance test://static-text", "conformance test://watched-resource"}; !slices.Equal(uris, want) {
		t.Errorf("Resources: got %v, want %v", uris, want)
	}
	if ts := h.ResourceTemplates(); len(ts) != 1 || ts[0].URITemplate != "test://template/{id}/data" || !ts[0].Completes {
		t.Errorf("ResourceTemplates: got %+v", ts)
	}

	res, err := h.ReadResource(ctx, "test://static-text", sdk.Session{})
	if err != nil || res.Text != "This is the content of the static text resource." || res.MIMEType != "text/plain" || res.Mod != "conformance" {
		t.Errorf("static text: got %+v, %v", res, err)
	}
	res, err = h.ReadResource(ctx, "test://template/7/data", sdk.Session{})
	if err != nil || res.URI != "test://template/7/data" || !strings.Contains(res.Text, `"id":"7"`) || res.MIMEType != "application/json" {
		t.Errorf("template: got %+v, %v", res, err)
	}
	for _, uri := range []string{"test://nowhere", "test://template/missing/data", "test://template/a/b/data"} {
		if _, err := h.ReadResource(ctx, uri, sdk.Session{}); !errors.Is(err, host.ErrResourceNotFound) {
			t.Errorf("read %s: got %v, want ErrResourceNotFound", uri, err)
		}
	}
}

func TestPromptsFromSlashCommands(t *testing.T) {
	t.Parallel()
	h := loadFixture(t)
	ctx := context.Background()
	var ids []string
	for _, p := range h.Prompts() {
		ids = append(ids, p.ID)
	}
	// crashy's /shout is a prompt too, with no arguments.
	if want := []string{"shout", "test_input_required_result_prompt", "test_prompt_with_arguments", "test_prompt_with_embedded_resource", "test_prompt_with_image", "test_simple_prompt"}; !slices.Equal(ids, want) {
		t.Errorf("Prompts: got %v, want %v", ids, want)
	}
	pr, err := h.GetPrompt(ctx, "test_prompt_with_arguments", map[string]string{"arg1": "a", "arg2": "b"}, sdk.Session{})
	if err != nil || len(pr.Messages) != 1 || pr.Messages[0].Text != "Prompt with arguments: arg1='a', arg2='b'" {
		t.Errorf("with arguments: got %+v, %v", pr, err)
	}
	// A slash command with only Run is a prompt of one user message.
	pr, err = h.GetPrompt(ctx, "shout", nil, sdk.Session{})
	if err != nil || len(pr.Messages) != 1 || pr.Messages[0].Role != sdk.RoleUser {
		t.Errorf("shout: got %+v, %v", pr, err)
	}
	// A prompt with only Prompt runs for a person from the typed text.
	msg, err := h.RunSlashCommand(ctx, "test_prompt_with_arguments", "one two three", sdk.Session{})
	if err != nil || msg != "Prompt with arguments: arg1='one', arg2='two three'" {
		t.Errorf("typed: got %q, %v", msg, err)
	}
	if _, err := h.RunSlashCommand(ctx, "test_prompt_with_arguments", "one", sdk.Session{}); err == nil ||
		!strings.Contains(err.Error(), "slash command /test_prompt_with_arguments needs its arg2 argument: type /test_prompt_with_arguments <arg1> <arg2>") {
		t.Errorf("typed without arg2: got %v", err)
	}
	for _, args := range []map[string]string{{"arg1": "a"}, {"arg1": "a", "arg2": "b", "arg3": "c"}} {
		if _, err := h.GetPrompt(ctx, "test_prompt_with_arguments", args, sdk.Session{}); !errors.Is(err, host.ErrBadArguments) {
			t.Errorf("args %v: got %v, want ErrBadArguments", args, err)
		}
	}
	if _, err := h.GetPrompt(ctx, "nope", nil, sdk.Session{}); !errors.Is(err, host.ErrUnknownCommand) {
		t.Errorf("unknown prompt: got %v, want ErrUnknownCommand", err)
	}
}

func TestComplete(t *testing.T) {
	t.Parallel()
	h := loadFixture(t)
	ctx := context.Background()
	c, err := h.Complete(ctx, &host.CompleteRequest{Template: "test://template/{id}/data", CompletionRequest: sdk.CompletionRequest{Argument: "id", Value: "1"}})
	if err != nil || !slices.Equal(c.Values, []string{"1", "12", "123"}) {
		t.Errorf("template: got %+v, %v", c, err)
	}
	// No Complete handler: nothing, without starting the mod.
	c, err = h.Complete(ctx, &host.CompleteRequest{Prompt: "test_prompt_with_embedded_resource", CompletionRequest: sdk.CompletionRequest{Argument: "resourceUri"}})
	if err != nil || c.Values == nil || len(c.Values) != 0 {
		t.Errorf("no handler: got %+v, %v", c, err)
	}
	for _, req := range []*host.CompleteRequest{
		{Prompt: "test_prompt_with_arguments", CompletionRequest: sdk.CompletionRequest{Argument: "arg9"}},
		{Template: "test://template/{id}/data", CompletionRequest: sdk.CompletionRequest{Argument: "name"}},
	} {
		if _, err := h.Complete(ctx, req); !errors.Is(err, host.ErrBadArguments) {
			t.Errorf("%+v: got %v, want ErrBadArguments", req, err)
		}
	}
}

// TestResourceUpdates waits for the update the fixture's mod sends, from
// the goroutine its Activate starts, after a subscription started it.
func TestResourceUpdates(t *testing.T) {
	t.Parallel()
	h := loadFixture(t)
	got := make(chan host.ResourceUpdate, 1)
	remove := h.OnResourceUpdated(func(u host.ResourceUpdate) {
		select {
		case got <- u:
		default:
		}
	})
	defer remove()
	if err := h.SubscribeResource(context.Background(), "test://nowhere"); !errors.Is(err, host.ErrResourceNotFound) {
		t.Errorf("subscribe to an unknown resource: got %v, want ErrResourceNotFound", err)
	}
	if err := h.SubscribeResource(context.Background(), "test://watched-resource"); err != nil {
		t.Fatal(err)
	}
	if u := <-got; u != (host.ResourceUpdate{Mod: "conformance", URI: "test://watched-resource"}) {
		t.Errorf("got %+v, want the watched resource of mod conformance", u)
	}
}

// TestPromptAsks gets a prompt whose handler asks the person, as a tool's
// does: answered now by the Asker; answered on a later request (the
// questions come back, then the prompt is got again with their answers);
// and not askable, a *PromptError naming the kind.
func TestPromptAsks(t *testing.T) {
	t.Parallel()
	h := loadFixture(t)
	ctx := context.Background()
	const id = "test_input_required_result_prompt"
	now := &scripted{kinds: everyKind, answers: map[string][]string{"user_context": {`{"action":"accept","content":{"context":"tests"}}`}}}
	pr, err := h.GetPromptAsking(ctx, &host.PromptRequest{ID: id, Asker: now})
	if err != nil || len(pr.Messages) != 1 || pr.Messages[0].Text != "Answer in this context: tests" || len(now.asked) != 1 {
		t.Fatalf("answered now: got %+v, %v (asked %d)", pr, err, len(now.asked))
	}
	if q := now.asked[0]; q.Kind != host.AskForm || q.Message != "What context should the prompt use?" || q.Tool != id {
		t.Errorf("question: got %+v", q)
	}

	pr, err = h.GetPromptAsking(ctx, &host.PromptRequest{ID: id, Asker: laterAsker{}})
	if err != nil || len(pr.Messages) != 0 || len(pr.Questions) != 1 || pr.Questions[0].Key != "user_context" {
		t.Fatalf("asked later: got %+v, %v", pr, err)
	}
	answers := append(pr.Answered, host.Answered{Question: pr.Questions[0], Answer: host.FormAnswer("accept", map[string]any{"context": "later"})})
	pr, err = h.GetPromptAsking(ctx, &host.PromptRequest{ID: id, Asker: laterAsker{}, Answers: answers})
	if err != nil || len(pr.Messages) != 1 || pr.Messages[0].Text != "Answer in this context: later" {
		t.Fatalf("answered later: got %+v, %v", pr, err)
	}

	_, err = h.GetPrompt(ctx, id, nil, sdk.Session{})
	var pe *host.PromptError
	if !errors.As(err, &pe) || !slices.Equal(pe.Unasked, []host.QuestionKind{host.AskForm}) || !strings.Contains(err.Error(), "could not be asked") {
		t.Errorf("nobody to ask: got %v, want a *PromptError naming form", err)
	}
}

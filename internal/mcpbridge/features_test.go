package mcpbridge_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// connectRevision serves the conformance fixture mod and connects a Go
// client speaking revision rev, with copts.
func connectRevision(t *testing.T, rev string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpbridge.NewServer(loadHost(t, conformanceDir), nil)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != rev {
		t.Fatalf("negotiated %s, want %s", got, rev)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		cancel()
	})
	return cs
}

var revisions = []string{"2025-11-25", "2026-07-28"}

func TestResources(t *testing.T) {
	t.Parallel()
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			cs := connectRevision(t, rev, nil)
			ctx := callCtx(t)
			caps := cs.InitializeResult().Capabilities
			if caps.Resources == nil || !caps.Resources.Subscribe || caps.Prompts == nil || caps.Completions == nil {
				t.Errorf("capabilities: got %+v, want resources with subscribe, prompts and completions", caps)
			}
			list, err := cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var uris []string
			for _, r := range list.Resources {
				uris = append(uris, r.URI)
			}
			if want := []string{"test://static-binary", "test://static-text", "test://watched-resource"}; !slices.Equal(uris, want) {
				t.Errorf("resources: got %v, want %v", uris, want)
			}
			tmpls, err := cs.ListResourceTemplates(ctx, nil)
			if err != nil || len(tmpls.ResourceTemplates) != 1 || tmpls.ResourceTemplates[0].URITemplate != "test://template/{id}/data" {
				t.Fatalf("templates: got %+v, %v", tmpls, err)
			}

			tests := []struct {
				uri, mime, text string
				blob            bool
			}{
				{"test://static-text", "text/plain", "This is the content of the static text resource.", false},
				{"test://static-binary", "image/png", "", true},
				{"test://template/a%20b/data", "application/json", `{"id":"a b","templateTest":true,"data":"Data for ID: a b"}`, false},
			}
			for _, tt := range tests {
				res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tt.uri})
				if err != nil {
					t.Errorf("read %s: %v", tt.uri, err)
					continue
				}
				c := res.Contents[0]
				if len(res.Contents) != 1 || c.URI != tt.uri || c.MIMEType != tt.mime || c.Text != tt.text || (len(c.Blob) > 0) != tt.blob {
					t.Errorf("read %s: got %+v, want %s %q blob %v", tt.uri, c, tt.mime, tt.text, tt.blob)
				}
			}

			// Not found: no such URI, or the mod's own not-found, in the
			// revision's code, with the URI in the data.
			wantCode := int64(mcpbridge.CodeResourceNotFoundLegacy)
			if rev >= "2026-07-28" {
				wantCode = jsonrpc.CodeInvalidParams
			}
			for _, uri := range []string{"test://nonexistent", "test://template/missing/data"} {
				_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
				var je *jsonrpc.Error
				if !errors.As(err, &je) || je.Code != wantCode || !strings.Contains(string(je.Data), uri) {
					t.Errorf("read %s: got %v, want code %d with the uri", uri, err, wantCode)
				}
			}
		})
	}
}

func TestPrompts(t *testing.T) {
	t.Parallel()
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			cs := connectRevision(t, rev, nil)
			ctx := callCtx(t)
			list, err := cs.ListPrompts(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(list.Prompts, func(p *mcp.Prompt) bool { return p.Name == "test_prompt_with_arguments" })
			if i < 0 || len(list.Prompts[i].Arguments) != 2 || !list.Prompts[i].Arguments[0].Required || list.Prompts[i].Arguments[0].Name != "arg1" {
				t.Fatalf("prompts: got %+v, want test_prompt_with_arguments with arg1 and arg2 required", list.Prompts)
			}

			res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "hello", "arg2": "world"}})
			if err != nil {
				t.Fatal(err)
			}
			if tc, ok := res.Messages[0].Content.(*mcp.TextContent); !ok || tc.Text != "Prompt with arguments: arg1='hello', arg2='world'" || res.Messages[0].Role != "user" {
				t.Errorf("prompt with arguments: got %+v", res.Messages[0])
			}
			res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_embedded_resource", Arguments: map[string]string{"resourceUri": "test://x"}})
			if err != nil {
				t.Fatal(err)
			}
			if er, ok := res.Messages[0].Content.(*mcp.EmbeddedResource); !ok || er.Resource.URI != "test://x" || er.Resource.Text != "Embedded resource content for testing." {
				t.Errorf("embedded resource: got %+v", res.Messages[0].Content)
			}
			res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_image"})
			if err != nil {
				t.Fatal(err)
			}
			if img, ok := res.Messages[0].Content.(*mcp.ImageContent); !ok || img.MIMEType != "image/png" || len(img.Data) == 0 {
				t.Errorf("image: got %+v", res.Messages[0].Content)
			}

			_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "x"}})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "prompt test_prompt_with_arguments needs arg2") {
				t.Errorf("missing argument: got %v, want invalid params naming arg2", err)
			}
			_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_simple_prompt", Arguments: map[string]string{"x": "y"}})
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "has no argument x; it takes no arguments") {
				t.Errorf("unknown argument: got %v, want invalid params naming x", err)
			}
		})
	}
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			cs := connectRevision(t, rev, nil)
			ctx := callCtx(t)
			tests := []struct {
				ref        *mcp.CompleteReference
				arg, value string
				want       []string
			}{
				{&mcp.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"}, "arg1", "test", []string{"test", "testing", "test_value"}},
				{&mcp.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"}, "arg2", "wor", []string{"world", "word"}},
				{&mcp.CompleteReference{Type: "ref/resource", URI: "test://template/{id}/data"}, "id", "12", []string{"12", "123"}},
				// A prompt without a Complete handler suggests nothing.
				{&mcp.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_embedded_resource"}, "resourceUri", "t", []string{}},
			}
			for _, tt := range tests {
				res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: tt.ref, Argument: mcp.CompleteParamsArgument{Name: tt.arg, Value: tt.value}})
				if err != nil {
					t.Errorf("complete %s %s: %v", tt.arg, tt.value, err)
					continue
				}
				if !slices.Equal(res.Completion.Values, tt.want) {
					t.Errorf("complete %s %q: got %v, want %v", tt.arg, tt.value, res.Completion.Values, tt.want)
				}
			}
			for _, bad := range []*mcp.CompleteParams{
				{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "nope"}, Argument: mcp.CompleteParamsArgument{Name: "a"}},
				{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "test_simple_prompt"}, Argument: mcp.CompleteParamsArgument{Name: "a"}},
				{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "test://static-text"}, Argument: mcp.CompleteParamsArgument{Name: "a"}},
			} {
				_, err := cs.Complete(ctx, bad)
				var je *jsonrpc.Error
				if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
					t.Errorf("complete %+v: got %v, want invalid params", bad.Ref, err)
				}
			}
		})
	}
}

// TestResourceSubscription subscribes to the fixture's watched resource,
// which its mod changes every second from a goroutine started in
// Activate, and waits for the update the mod sends through the host.
func TestResourceSubscription(t *testing.T) {
	t.Parallel()
	updated := make(chan string, 10)
	cs := connectRevision(t, "2025-11-25", &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case updated <- req.Params.URI:
			default:
			}
		},
	})
	ctx := callCtx(t)
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		if uri != "test://watched-resource" {
			t.Errorf("got an update of %s, want test://watched-resource", uri)
		}
	case <-ctx.Done():
		t.Fatal("no resource update arrived")
	}
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://nonexistent"})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != mcpbridge.CodeResourceNotFoundLegacy {
		t.Errorf("subscribe to an unknown resource: got %v, want resource not found", err)
	}
}

// TestFeaturesOverStdio drives modhost mcp over stdio in both revisions:
// a resource read, the revision's not-found code, a prompt and a
// completion, as a client process sees them.
func TestFeaturesOverStdio(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modhost")
	}
	bin := modhostBinary(t)
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			cmd := exec.Command(bin, "--mods", conformanceDir, "mcp")
			cmd.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
			ctx := callCtx(t)
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
				Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: rev})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != rev {
				t.Fatalf("negotiated %s, want %s", got, rev)
			}
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://template/8/data"})
			if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, `"id":"8"`) {
				t.Errorf("read: got %+v, %v", res, err)
			}
			wantCode := int64(mcpbridge.CodeResourceNotFoundLegacy)
			if rev >= "2026-07-28" {
				wantCode = jsonrpc.CodeInvalidParams
			}
			_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://template/missing/data"})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != wantCode {
				t.Errorf("not found: got %v, want code %d", err, wantCode)
			}
			pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_simple_prompt"})
			if err != nil || len(pr.Messages) != 1 {
				t.Errorf("prompt: got %+v, %v", pr, err)
			}
			c, err := cs.Complete(ctx, &mcp.CompleteParams{
				Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "test://template/{id}/data"},
				Argument: mcp.CompleteParamsArgument{Name: "id", Value: "4"},
			})
			if err != nil || !slices.Equal(c.Completion.Values, []string{"42"}) {
				t.Errorf("complete: got %+v, %v", c, err)
			}
		})
	}
}

// TestPromptAsks gets a prompt whose handler asks the person, in both
// revisions: through elicitation/create in a 2025-11-25 session, through
// input_required and requestState in 2026-07-28 (the Go client answers
// and retries); a client that declares no elicitation gets the prompt's
// failure, and -32021 naming elicitation in 2026-07-28.
func TestPromptAsks(t *testing.T) {
	t.Parallel()
	const id = "test_input_required_result_prompt"
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			var asked []string
			copts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked = append(asked, req.Params.Message)
				return accept(map[string]any{"context": "tests"}), nil
			}}
			cs := connectRevision(t, rev, copts)
			res, err := cs.GetPrompt(callCtx(t), &mcp.GetPromptParams{Name: id})
			if err != nil || len(res.Messages) != 1 || res.Messages[0].Content.(*mcp.TextContent).Text != "Answer in this context: tests" {
				t.Fatalf("answered: got %+v, %v", res, err)
			}
			if !slices.Equal(asked, []string{"What context should the prompt use?"}) {
				t.Errorf("asked %q", asked)
			}

			_, err = connectRevision(t, rev, nil).GetPrompt(callCtx(t), &mcp.GetPromptParams{Name: id})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || !strings.Contains(je.Message, "the client cannot ask a person to fill a form") {
				t.Fatalf("no elicitation: got %v, want the question could not be asked", err)
			}
			if rev >= "2026-07-28" && (je.Code != mcp.CodeMissingRequiredClientCapabilities || !strings.Contains(string(je.Data), `"elicitation":{"form":{}}`)) {
				t.Errorf("no elicitation: got code %d, data %s; want -32021 naming elicitation", je.Code, je.Data)
			}
		})
	}
}

// TestPromptRequestState drives a prompt's round by hand: the answer on
// the retry completes it; the state is bound to the prompt and its
// arguments.
func TestPromptRequestState(t *testing.T) {
	t.Parallel()
	copts := &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("not asked this way")
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	}
	cs := connectRevision(t, "2026-07-28", copts)
	ctx := callCtx(t)
	const id = "test_input_required_result_prompt"
	first, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: id})
	if err != nil || first.RequestState == "" || len(first.Messages) != 0 {
		t.Fatalf("got %+v, %v; want input requests with a state", first, err)
	}
	if el, ok := first.InputRequests["user_context"].(*mcp.ElicitParams); !ok || el.Message != "What context should the prompt use?" {
		t.Fatalf("got input requests %+v, want the form user_context", first.InputRequests)
	}
	answer := mcp.InputResponseMap{"user_context": accept(map[string]any{"context": "by hand"})}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: id, RequestState: first.RequestState, InputResponses: answer})
	if err != nil || len(res.Messages) != 1 || res.Messages[0].Content.(*mcp.TextContent).Text != "Answer in this context: by hand" {
		t.Fatalf("retry: got %+v, %v", res, err)
	}
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: id, Arguments: map[string]string{"x": "y"}, RequestState: first.RequestState, InputResponses: answer})
	if err == nil || !strings.Contains(err.Error(), "requestState: belongs to a call with other arguments") {
		t.Errorf("other arguments: got %v", err)
	}
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_simple_prompt", RequestState: first.RequestState, InputResponses: answer})
	if err == nil || !strings.Contains(err.Error(), "requestState: belongs to a call of prompt "+id+", not test_simple_prompt") {
		t.Errorf("another prompt: got %v", err)
	}
}

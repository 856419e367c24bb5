package mcpbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

var askingDir = filepath.Join("..", "..", "host", "testdata", "mods", "asking")

// client answers a tool's questions as scripted: forms by message.
type client struct {
	forms    map[string]*mcp.ElicitResult
	failWith string
	asked    []string
}

func (c *client) elicit(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	c.asked = append(c.asked, req.Params.Message)
	if c.failWith != "" {
		return nil, errors.New(c.failWith)
	}
	for prefix, r := range c.forms {
		if strings.HasPrefix(req.Params.Message, prefix) {
			return r, nil
		}
	}
	return &mcp.ElicitResult{Action: "decline"}, nil
}

func (c *client) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ElicitationHandler: c.elicit,
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Paris"}}, nil
		},
	}
}

func accept(values map[string]any) *mcp.ElicitResult {
	return &mcp.ElicitResult{Action: "accept", Content: values}
}

// connectWith connects a client to a bridge over b made with opts.
func connectWith(t *testing.T, b mcpbridge.Backend, opts *mcpbridge.Options, copts *mcp.ClientOptions, version string, roots ...*mcp.Root) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpbridge.NewServer(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts)
	c.AddRoots(roots...)
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		cancel()
	})
	return cs
}

// TestQuestions answers a tool's questions through the Go client, over
// the newest revision (input_required, requestState) and 2025-11-25
// (server→client requests): accepted, declined, dismissed, and not asked
// when the client declares no such capability.
func TestQuestions(t *testing.T) {
	t.Parallel()
	h := loadHost(t, askingDir)
	ada := map[string]*mcp.ElicitResult{"What is your name?": accept(map[string]any{"name": "Ada"}), "Which colour?": accept(map[string]any{"color": "green"})}
	tests := []struct {
		name, tool string
		client     *client // nil: no handlers at all
		roots      bool
		wantErr    bool
		wantText   string
		// missing is the capability a client of the newest revision is
		// told it lacks (-32021) instead of reading wantText.
		missing string
	}{
		{name: "accept", tool: "asking_greet", client: &client{forms: ada}, wantText: "Hello Ada, green"},
		{name: "decline", tool: "asking_greet", client: &client{forms: map[string]*mcp.ElicitResult{"What": {Action: "decline"}}}, wantText: "no name: decline"},
		{name: "cancel", tool: "asking_greet", client: &client{forms: map[string]*mcp.ElicitResult{"What": {Action: "cancel"}}}, wantText: "no name: cancel"},
		{name: "no elicitation", tool: "asking_greet",
			wantText: "no name: the question could not be asked: the client cannot ask a person to fill a form"},
		{name: "sampling and roots", tool: "asking_model", client: &client{}, roots: true, wantText: "Paris | file:///work"},
		{name: "no sampling", tool: "asking_model", wantErr: true, missing: "sampling",
			wantText: "Tool failed: the question could not be asked: the client offers no model to sample"},
		{name: "approval, then a question", tool: "asking_guarded",
			client:   &client{forms: map[string]*mcp.ElicitResult{"asking_guarded needs your approval": {Action: "accept"}, "What": accept(map[string]any{"name": "Ada"})}},
			wantText: "Hello Ada"},
		{name: "approval dismissed", tool: "asking_guarded", client: &client{forms: map[string]*mcp.ElicitResult{"asking_guarded": {Action: "cancel"}}}, wantErr: true,
			wantText: "The person dismissed the question without choosing, so asking_guarded did not run; ask again only if they want it. They were asked: Greet someone"},
	}
	for _, version := range []string{"", "2025-11-25"} {
		for _, tt := range tests {
			t.Run(tt.name+" "+version, func(t *testing.T) {
				var copts *mcp.ClientOptions
				if tt.client != nil {
					copts = tt.client.options()
				}
				var roots []*mcp.Root
				if tt.roots {
					roots = append(roots, &mcp.Root{URI: "file:///work"})
				}
				cs := connectWith(t, h, nil, copts, version, roots...)
				res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: tt.tool, Arguments: map[string]any{}})
				if tt.missing != "" && version == "" {
					var je *jsonrpc.Error
					if !errors.As(err, &je) || je.Code != mcp.CodeMissingRequiredClientCapabilities {
						t.Fatalf("CallTool: %v, %v; want error %d", res, err, mcp.CodeMissingRequiredClientCapabilities)
					}
					var data struct {
						RequiredCapabilities map[string]any `json:"requiredCapabilities"`
					}
					if json.Unmarshal(je.Data, &data); data.RequiredCapabilities[tt.missing] == nil || len(data.RequiredCapabilities) != 1 {
						t.Errorf("error data %s; want requiredCapabilities naming %s alone", je.Data, tt.missing)
					}
					if want := strings.TrimPrefix(tt.wantText, "Tool failed: "); !strings.Contains(je.Message, want) {
						t.Errorf("error message %q; want it to say %q", je.Message, want)
					}
					return
				}
				if err != nil {
					t.Fatalf("CallTool: %v", err)
				}
				if got := resultText(res); res.IsError != tt.wantErr || got != tt.wantText {
					t.Errorf("got isError %v, %q; want %v, %q", res.IsError, got, tt.wantErr, tt.wantText)
				}
			})
		}
	}
}

// TestApprovalNotAsked: a 2025-11-25 client whose elicitation handler
// fails reads a tool result, not a protocol error.
func TestApprovalNotAsked(t *testing.T) {
	t.Parallel()
	h := loadHost(t, askingDir)
	c := &client{failWith: "the person's window is closed"}
	cs := connectWith(t, h, nil, c.options(), "2025-11-25")
	res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "asking_guarded", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	want := "Tool failed: approval for tool asking_guarded could not be asked: the person's window is closed"
	if got := resultText(res); !res.IsError || got != want {
		t.Errorf("got isError %v, %q; want an error result %q", res.IsError, got, want)
	}
}

// TestApprovalToolsListed: tools that need approval are listed only to
// clients that declare form elicitation.
func TestApprovalToolsListed(t *testing.T) {
	t.Parallel()
	h := loadHost(t, askingDir)
	for _, tt := range []struct {
		name   string
		copts  *mcp.ClientOptions
		listed bool
	}{
		{"form elicitation", (&client{}).options(), true},
		{"none", nil, false},
		{"url only", &mcp.ClientOptions{ElicitationHandler: (&client{}).elicit,
			Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}}, false},
	} {
		for _, version := range []string{"", "2025-11-25"} {
			t.Run(tt.name+" "+version, func(t *testing.T) {
				cs := connectWith(t, h, nil, tt.copts, version)
				list, err := cs.ListTools(callCtx(t), &mcp.ListToolsParams{})
				if err != nil {
					t.Fatal(err)
				}
				listed := slices.ContainsFunc(list.Tools, func(tl *mcp.Tool) bool { return tl.Name == "asking_guarded" })
				if listed != tt.listed || len(list.Tools) < 3 {
					t.Errorf("asking_guarded listed %v among %d tools, want %v", listed, len(list.Tools), tt.listed)
				}
			})
		}
	}
}

// TestRequestState drives the newest revision's rounds by hand: a state
// altered, expired, of another tool or input, over the size limit, or
// sealed by another key is refused, naming which; so is an answer to a
// question never asked; an answer that breaks the form asks again.
func TestRequestState(t *testing.T) {
	t.Parallel()
	h := loadHost(t, askingDir)
	key := make([]byte, mcpbridge.StateKeySize)
	copts := (&client{}).options()
	copts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	cs := connectWith(t, h, &mcpbridge.Options{StateKey: key}, copts, "")
	call := func(tool string, args map[string]any, state string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
		return cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: tool, Arguments: args, RequestState: state, InputResponses: responses})
	}
	first, err := call("asking_greet", map[string]any{}, "", nil)
	if err != nil || !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("got %+v, %v; want an input request with a state", first, err)
	}
	el, ok := first.InputRequests["name"].(*mcp.ElicitParams)
	if !ok || el.Message != "What is your name?" {
		t.Fatalf("got input requests %+v, want the form named name", first.InputRequests)
	}
	name := mcp.InputResponseMap{"name": accept(map[string]any{"name": "Ada"})}

	wantRefused := func(t *testing.T, res *mcp.CallToolResult, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %+v, %v; want an error containing %q", res, err, want)
		}
	}
	t.Run("tampered", func(t *testing.T) {
		s := []byte(first.RequestState)
		s[len(s)/2] ^= 1
		res, err := call("asking_greet", map[string]any{}, string(s), name)
		wantRefused(t, res, err, "requestState: was altered, or sealed by another server's key")
	})
	t.Run("another tool", func(t *testing.T) {
		res, err := call("asking_url", map[string]any{}, first.RequestState, name)
		wantRefused(t, res, err, "requestState: belongs to a call of tool asking_greet, not asking_url")
	})
	t.Run("other arguments", func(t *testing.T) {
		res, err := call("asking_greet", map[string]any{"runs": "x"}, first.RequestState, name)
		wantRefused(t, res, err, "requestState: belongs to a call with other arguments")
	})
	t.Run("expired", func(t *testing.T) {
		old, err := mcpbridge.SealedAt(key, time.Now().Add(-mcpbridge.DefaultStateTTL-time.Minute), "asking_greet", []byte("{}"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := call("asking_greet", map[string]any{}, old, name)
		wantRefused(t, res, err, "requestState: has expired")
	})
	t.Run("over the limit", func(t *testing.T) {
		res, err := call("asking_greet", map[string]any{}, strings.Repeat("A", mcpbridge.MaxStateBytes+1), name)
		wantRefused(t, res, err, "requestState: is 65537 bytes, over the limit of 65536")
	})
	t.Run("never asked", func(t *testing.T) {
		// Responses to questions not asked are ignored (SEP-2322): the
		// question asked is asked again.
		res, err := call("asking_greet", map[string]any{}, first.RequestState, mcp.InputResponseMap{"color": accept(map[string]any{"color": "red"})})
		if err != nil || !res.NeedsInput() || res.InputRequests["name"] == nil || len(res.InputRequests) != 1 {
			t.Errorf("got %+v, %v; want the name asked again", res, err)
		}
	})
	t.Run("answered ahead", func(t *testing.T) {
		// Without a state, responses answer the questions of their keys
		// when asked; the others are ignored.
		res, err := call("asking_greet", map[string]any{}, "", mcp.InputResponseMap{
			"name": accept(map[string]any{"name": "Ada"}), "color": accept(map[string]any{"color": "red"}), "extra": accept(nil)})
		if err != nil || res.NeedsInput() || resultText(res) != "Hello Ada, red" {
			t.Errorf("got %+v (%q), %v; want the call completed", res, resultText(res), err)
		}
	})
	t.Run("wrong kind", func(t *testing.T) {
		res, err := call("asking_greet", map[string]any{}, first.RequestState, mcp.InputResponseMap{"name": &mcp.ListRootsResult{Roots: []*mcp.Root{}}})
		wantRefused(t, res, err, `inputResponses["name"]: the question asked for an elicitation result`)
	})
	t.Run("another key", func(t *testing.T) {
		other := connectWith(t, h, nil, copts, "")
		res, err := other.CallTool(callCtx(t), &mcp.CallToolParams{Name: "asking_greet", Arguments: map[string]any{}, RequestState: first.RequestState, InputResponses: name})
		wantRefused(t, res, err, "requestState: was altered, or sealed by another server's key")
	})
	t.Run("answer breaks the form", func(t *testing.T) {
		res, err := call("asking_greet", map[string]any{}, first.RequestState, mcp.InputResponseMap{"name": accept(map[string]any{"name": ""})})
		if err != nil || !res.NeedsInput() {
			t.Fatalf("got %+v, %v; want the question asked again", res, err)
		}
		el, _ := res.InputRequests["name"].(*mcp.ElicitParams)
		if el == nil || !strings.HasPrefix(el.Message, "Your last answer was refused: the answer does not fit the form:") || !strings.Contains(el.Message, "/content/name") {
			t.Errorf("got %+v, want the form again, saying why the answer was refused", res.InputRequests)
		}
	})
	t.Run("a replica with the key", func(t *testing.T) {
		replica := connectWith(t, h, &mcpbridge.Options{StateKey: key}, copts, "")
		second, err := replica.CallTool(callCtx(t), &mcp.CallToolParams{Name: "asking_greet", Arguments: map[string]any{}, RequestState: first.RequestState, InputResponses: name})
		if err != nil || !second.NeedsInput() || second.InputRequests["color"] == nil {
			t.Fatalf("got %+v, %v; want the second question", second, err)
		}
		res, err := call("asking_greet", map[string]any{}, second.RequestState, mcp.InputResponseMap{"color": accept(map[string]any{"color": "red"})})
		if err != nil || resultText(res) != "Hello Ada, red" {
			t.Errorf("got %+v, %v; want the call completed", res, err)
		}
	})
}

package mcpbridge_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

var approvingDir = filepath.Join("..", "..", "host", "testdata", "mods", "approving")

// person answers elicitations as scripted and records what was asked.
type person struct {
	mu     sync.Mutex
	asked  []string
	action string
}

func (p *person) elicit(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, req.Params.Message)
	return &mcp.ElicitResult{Action: p.action}, nil
}

// connectVersion connects a client of protocol version ("" for the
// newest) with copts to a bridge over b.
func connectVersion(t *testing.T, b mcpbridge.Backend, copts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	return connectVersionWith(t, b, nil, copts, version)
}

// connectVersionWith is connectVersion with the server's options.
func connectVersionWith(t *testing.T, b mcpbridge.Backend, opts *mcpbridge.Options, copts *mcp.ClientOptions, version string) *mcp.ClientSession {
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
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
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

// jsonArgs decodes tool arguments written as JSON.
func jsonArgs(t *testing.T, input string) map[string]any {
	t.Helper()
	var args map[string]any
	if err := json.Unmarshal([]byte(input), &args); err != nil {
		t.Fatal(err)
	}
	return args
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestElicitation asks for approval through a client that declares
// elicitation, over the newest protocol (multi round trip) and an older
// one (an elicitation/create request), and refuses through a client that
// does not declare it.
func TestElicitation(t *testing.T) {
	t.Parallel()
	h := loadHost(t, approvingDir)
	tests := []struct {
		name     string
		action   string // "" for a client without elicitation
		urlOnly  bool   // the client declares url elicitation only
		input    string
		wantErr  bool
		wantText string
		wantAsk  string
	}{
		{name: "accept", action: "accept", input: `{"reason":"Do it"}`, wantText: "ran", wantAsk: "approving_guarded needs your approval: Do it"},
		{name: "decline", action: "decline", input: `{"reason":"Do it"}`, wantErr: true, wantAsk: "approving_guarded needs your approval: Do it",
			wantText: "The person declined this call, so approving_guarded did not run. They were asked: Do it"},
		{name: "cancel", action: "cancel", input: `{"reason":"Do it"}`, wantErr: true, wantAsk: "approving_guarded needs your approval: Do it",
			wantText: "The person dismissed the question without choosing, so approving_guarded did not run; ask again only if they want it. They were asked: Do it"},
		{name: "not needed", action: "accept", input: `{}`, wantText: "ran"},
		{name: "no elicitation", input: `{"reason":"Do it"}`, wantErr: true,
			wantText: "Tool failed: tool approving_guarded needs a person's approval and none could be asked: Do it"},
		{name: "no elicitation, not needed", input: `{}`, wantText: "ran"},
		{name: "url elicitation only", action: "accept", urlOnly: true, input: `{"reason":"Do it"}`, wantErr: true,
			wantText: "Tool failed: tool approving_guarded needs a person's approval and none could be asked: Do it"},
	}
	for _, version := range []string{"", "2025-11-25"} {
		for _, tt := range tests {
			name := tt.name + " newest"
			if version != "" {
				name = tt.name + " " + version
			}
			t.Run(name, func(t *testing.T) {
				p := &person{action: tt.action}
				var copts *mcp.ClientOptions
				if tt.action != "" {
					copts = &mcp.ClientOptions{ElicitationHandler: p.elicit}
				}
				if tt.urlOnly {
					copts.Capabilities = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}
				}
				cs := connectVersion(t, h, copts, version)
				res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "approving_guarded", Arguments: jsonArgs(t, tt.input)})
				if err != nil {
					t.Fatalf("CallTool: %v", err)
				}
				if got := resultText(res); res.IsError != tt.wantErr || got != tt.wantText {
					t.Errorf("got isError %v, %q, want %v, %q", res.IsError, got, tt.wantErr, tt.wantText)
				}
				var wantAsked []string
				if tt.wantAsk != "" {
					wantAsked = []string{tt.wantAsk}
				}
				if strings.Join(p.asked, "|") != strings.Join(wantAsked, "|") {
					t.Errorf("the person was asked %q, want %q", p.asked, wantAsked)
				}
			})
		}
	}
}

// TestElicitationAnswersOnlyItsQuestion: an answer under a forged request
// state is refused; the state of the question asked runs the call.
func TestElicitationAnswersOnlyItsQuestion(t *testing.T) {
	t.Parallel()
	h := loadHost(t, approvingDir)
	copts := &mcp.ClientOptions{
		ElicitationHandler: (&person{action: "accept"}).elicit,
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
	}
	cs := connectVersion(t, h, copts, "")
	try := func(state string, answer bool) (*mcp.CallToolResult, error) {
		params := &mcp.CallToolParams{Name: "approving_guarded", Arguments: jsonArgs(t, `{"reason":"Do it"}`), RequestState: state}
		if answer {
			params.InputResponses = mcp.InputResponseMap{mcpbridge.ApprovalInput: &mcp.ElicitResult{Action: "accept"}}
		}
		return cs.CallTool(callCtx(t), params)
	}
	call := func(state string, answer bool) *mcp.CallToolResult {
		t.Helper()
		res, err := try(state, answer)
		if err != nil {
			t.Fatalf("CallTool: %v", err)
		}
		return res
	}
	first := call("", false)
	if !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("got %+v, want an input request with a request state", first)
	}
	el, ok := first.InputRequests[mcpbridge.ApprovalInput].(*mcp.ElicitParams)
	if !ok || el.Message != "approving_guarded needs your approval: Do it" {
		t.Fatalf("got input requests %+v, want the approval elicitation", first.InputRequests)
	}
	if res, err := try("forged", true); err == nil || !strings.Contains(err.Error(), "requestState: was altered") {
		t.Errorf("an answer under a forged request state: got %+v, %v; want it refused", res, err)
	}
	if res := call(first.RequestState, true); res.NeedsInput() || res.IsError || resultText(res) != "ran" {
		t.Errorf("got %+v (%q), want the call run", res, resultText(res))
	}
}

// TestElicitationWithClientActions: a call the person approved through
// elicitation carries its client actions in structured content and
// _meta; a declined one carries none.
func TestElicitationWithClientActions(t *testing.T) {
	t.Parallel()
	h := loadHost(t, approvingDir)
	const actions = `[{"kind":"reveal","params":{"secret":"s"}}]`
	for _, tt := range []struct {
		action, text            string
		isError                 bool
		structured, metaActions string
	}{
		{"accept", "revealed", false, `{"clientActions":` + actions + `}`, actions},
		{"decline", "The person declined this call, so approving_reveal did not run. They were asked: Show a secret on your screen", true, "null", "null"},
	} {
		t.Run(tt.action, func(t *testing.T) {
			cs := connectVersion(t, h, &mcp.ClientOptions{ElicitationHandler: (&person{action: tt.action}).elicit}, "")
			res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "approving_reveal", Arguments: jsonArgs(t, `{"secret":"s"}`)})
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if got := resultText(res); res.IsError != tt.isError || got != tt.text {
				t.Errorf("got isError %v, %q, want %v, %q", res.IsError, got, tt.isError, tt.text)
			}
			structured, _ := json.Marshal(res.StructuredContent)
			meta, _ := json.Marshal(res.Meta[mcpbridge.MetaClientActions])
			if string(structured) != tt.structured || string(meta) != tt.metaActions {
				t.Errorf("got structured content %s and _meta actions %s, want %s and %s", structured, meta, tt.structured, tt.metaActions)
			}
		})
	}
}

// TestClientOnlyToolNeedingApproval: over a real host, a tool only a client
// runs is not offered, even to a client that declares elicitation, and a
// call naming it asks nobody and fails.
func TestClientOnlyToolNeedingApproval(t *testing.T) {
	t.Parallel()
	h := loadHost(t, filepath.Join("..", "..", "host", "testdata", "mods", "clientside"))
	p := &person{action: "accept"}
	cs := connectVersion(t, h, &mcp.ClientOptions{ElicitationHandler: p.elicit}, "")
	list, err := cs.ListTools(callCtx(t), &mcp.ListToolsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, " "); got != "clientside_clock" {
		t.Errorf("got tools %s, want only clientside_clock", got)
	}
	res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "clientside_erase", Arguments: jsonArgs(t, `{"element":"nav"}`)})
	if err == nil && !res.IsError {
		t.Errorf("got %q, want the call refused", resultText(res))
	}
	if len(p.asked) > 0 {
		t.Errorf("the person was asked %q, want nobody asked", p.asked)
	}
}

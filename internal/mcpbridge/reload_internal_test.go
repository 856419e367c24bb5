package mcpbridge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// swappable serves the tools of one fakeBackend at a time, and its
// prompts and resources from one fakeFeatures, as a host.Live serves one
// host.
type swappable struct {
	mu   sync.Mutex
	cur  *fakeBackend
	feat *fakeFeatures
}

func (s *swappable) now() *fakeBackend {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

func (s *swappable) features() *fakeFeatures {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.feat == nil {
		return &fakeFeatures{}
	}
	return s.feat
}

func (s *swappable) Resources() []host.Resource { return s.features().Resources() }
func (s *swappable) ResourceTemplates() []host.ResourceTemplate {
	return s.features().ResourceTemplates()
}
func (s *swappable) ReadResource(ctx context.Context, uri string, session sdk.Session) (*host.ResourceResult, error) {
	return s.features().ReadResource(ctx, uri, session)
}
func (s *swappable) SubscribeResource(context.Context, string) error { return nil }
func (s *swappable) OnResourceUpdated(func(host.ResourceUpdate)) func() {
	return func() {}
}
func (s *swappable) Prompts() []host.Prompt { return s.features().Prompts() }
func (s *swappable) GetPromptAsking(ctx context.Context, req *host.PromptRequest) (*host.PromptResult, error) {
	return s.features().GetPromptAsking(ctx, req)
}
func (s *swappable) Complete(context.Context, *host.CompleteRequest) (sdk.Completion, error) {
	return sdk.Completion{}, nil
}

// fakeFeatures are fixed prompts and resources; a resource reads as its
// URI, a prompt gives its description.
type fakeFeatures struct {
	prompts   []host.Prompt
	resources []host.Resource
}

func (f *fakeFeatures) Resources() []host.Resource                 { return f.resources }
func (f *fakeFeatures) ResourceTemplates() []host.ResourceTemplate { return nil }
func (f *fakeFeatures) Prompts() []host.Prompt                     { return f.prompts }
func (f *fakeFeatures) ReadResource(_ context.Context, uri string, _ sdk.Session) (*host.ResourceResult, error) {
	return &host.ResourceResult{Mod: "m", URI: uri, ResourceContents: sdk.ResourceContents{Text: uri}}, nil
}
func (f *fakeFeatures) GetPromptAsking(_ context.Context, req *host.PromptRequest) (*host.PromptResult, error) {
	for _, p := range f.prompts {
		if p.ID == req.ID {
			return &host.PromptResult{Mod: "m", Description: p.Description}, nil
		}
	}
	return nil, fmt.Errorf("no prompt %s", req.ID)
}

func (s *swappable) Tools(agent string) ([]host.Tool, error) { return s.now().Tools(agent) }
func (s *swappable) Call(ctx context.Context, req *host.CallRequest) (*host.CallResult, error) {
	return s.now().Call(ctx, req)
}
func (s *swappable) RenderView(ctx context.Context, tool string, state sdk.RawViewState) (string, error) {
	return s.now().RenderView(ctx, tool, state)
}

// fakeTools serves tools of mod m, each call answered with its name.
func fakeTools(tools ...manifest.Tool) *fakeBackend {
	b := &fakeBackend{call: func(_ context.Context, req *host.CallRequest) *host.CallResult {
		return &host.CallResult{Status: host.StatusCompleted, Text: req.Tool}
	}}
	for _, t := range tools {
		b.tools = append(b.tools, host.Tool{Mod: "m", Tool: t})
	}
	return b
}

// describedTool is a tool with a description.
func describedTool(name, description string) manifest.Tool {
	t := manifestTool(name, `{"type":"string"}`)
	t.Description = description
	return t
}

// TestReload changes, adds and removes tools under a session: it hears the
// list changed and lists the new tools, the direct path serves them; a
// change to a tool whose approval NewServer fixed is refused, and the
// server serves on as it was.
func TestReload(t *testing.T) {
	b := &swappable{cur: fakeTools(describedTool("t_a", "A one."), describedTool("t_c", "C."))}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 10)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	list := func() string {
		t.Helper()
		res, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range res.Tools {
			out = append(out, tool.Name+": "+tool.Description)
		}
		return strings.Join(out, "; ")
	}

	next := fakeTools(describedTool("t_a", "A two."), describedTool("t_b", "B."))
	swapped := false
	err = srv.Reload(next, func() error {
		b.mu.Lock()
		b.cur, swapped = next, true
		b.mu.Unlock()
		return nil
	})
	if err != nil || !swapped {
		t.Fatalf("Reload: got %v, swapped %v; want it swapped", err, swapped)
	}
	<-changed
	if got, want := list(), "t_a: A two.; t_b: B."; got != want {
		t.Errorf("after Reload: got %q, want %q", got, want)
	}
	direct := srv.direct
	if _, ok := direct.handler("t_b"); !ok {
		t.Error("the direct path does not serve the added t_b")
	}
	if _, ok := direct.handler("t_c"); ok {
		t.Error("the direct path still serves the removed t_c")
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t_b"})
	if err != nil || res.IsError {
		t.Errorf("call of the added t_b: got %+v, %v", res, err)
	}

	// A tool that needs approval, added live, is hidden from this client,
	// which cannot be asked (it declares no form elicitation).
	approving := describedTool("t_d", "D.")
	approving.Approval = &manifest.Approval{When: manifest.ApprovalAlways}
	withApproval := fakeTools(describedTool("t_a", "A two."), describedTool("t_b", "B."), approving)
	if err := srv.Reload(withApproval, func() error { b.mu.Lock(); b.cur = withApproval; b.mu.Unlock(); return nil }); err != nil {
		t.Fatal(err)
	}
	<-changed
	if got, want := list(), "t_a: A two.; t_b: B."; got != want {
		t.Errorf("after t_d came with approval: got %q, want %q", got, want)
	}
	if !srv.bridge.now().approving["t_d"] {
		t.Error("the generation served does not say t_d needs approval")
	}
	if names := changedNames(next.tools, withApproval.tools, toolName); !slices.Equal(names, []string{"t_d"}) {
		t.Errorf("changedNames: got %v, want [t_d]", names)
	}

	// A tool with a reserved name beside a view is refused before the
	// swap, and the server serves on as it was.
	viewed := describedTool("t_v", "V.")
	viewed.HasView = true
	refused := fakeTools(describedTool("t_a", "A two."), describedTool(RenderViewTool, "R."), viewed)
	err = srv.Reload(refused, func() error {
		t.Error("Reload swapped a change it refused")
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Errorf("a tool named %s beside a view: got %v, want a refusal", RenderViewTool, err)
	}
	if got, want := list(), "t_a: A two.; t_b: B."; got != want {
		t.Errorf("after a refused Reload: got %q, want %q", got, want)
	}
}

// TestReloadFeatures changes a prompt, and replaces a resource with
// another, under a session: it hears both lists changed and lists them
// new.
func TestReloadFeatures(t *testing.T) {
	prompt := func(description string) host.Prompt {
		return host.Prompt{Mod: "m", SlashCommand: manifest.SlashCommand{ID: "p", Description: description}}
	}
	resource := func(uri string) host.Resource {
		return host.Resource{Mod: "m", Resource: manifest.Resource{URI: uri, Name: "r", Description: "A resource."}}
	}
	b := &swappable{cur: fakeTools(), feat: &fakeFeatures{prompts: []host.Prompt{prompt("One.")}, resources: []host.Resource{resource("m://one")}}}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	prompts, resources := make(chan struct{}, 10), make(chan struct{}, 10)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { prompts <- struct{}{} },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { resources <- struct{}{} },
	}).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	caps := cs.InitializeResult().Capabilities
	if caps.Prompts == nil || !caps.Prompts.ListChanged || caps.Resources == nil || !caps.Resources.ListChanged {
		t.Errorf("capabilities: got prompts %+v, resources %+v, want listChanged on both", caps.Prompts, caps.Resources)
	}

	next := &fakeFeatures{prompts: []host.Prompt{prompt("Two.")}, resources: []host.Resource{resource("m://two")}}
	nextBackend := &swappable{cur: b.now(), feat: next}
	err = srv.Reload(nextBackend, func() error {
		b.mu.Lock()
		b.feat = next
		b.mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	<-prompts
	<-resources
	pl, err := cs.ListPrompts(t.Context(), nil)
	if err != nil || len(pl.Prompts) != 1 || pl.Prompts[0].Description != "Two." {
		t.Errorf("prompts/list: got %+v, %v, want p: Two.", pl, err)
	}
	rl, err := cs.ListResources(t.Context(), nil)
	if err != nil || len(rl.Resources) != 1 || rl.Resources[0].URI != "m://two" {
		t.Errorf("resources/list: got %+v, %v, want m://two alone", rl, err)
	}
	got, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "m://two"})
	if err != nil || len(got.Contents) != 1 || got.Contents[0].Text != "m://two" {
		t.Errorf("resources/read of the new resource: got %+v, %v", got, err)
	}
}

package mcpbridge

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// swappable serves the tools of one fakeBackend at a time, as a host.Live
// serves one host.
type swappable struct {
	mu  sync.Mutex
	cur *fakeBackend
}

func (s *swappable) now() *fakeBackend {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
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
	err = Reload(srv, next, func() error {
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
	direct := directCallsOf(srv)
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

	approving := describedTool("t_d", "D.")
	approving.Approval = &manifest.Approval{When: manifest.ApprovalAlways}
	refused := fakeTools(describedTool("t_a", "A two."), describedTool("t_b", "B."), approving)
	err = Reload(srv, refused, func() error {
		t.Error("Reload swapped a change it refused")
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "tool t_d changed") || !strings.Contains(err.Error(), "restart modhost") {
		t.Errorf("a tool with approval added: got %v, want a refusal naming t_d", err)
	}
	if got, want := list(), "t_a: A two.; t_b: B."; got != want {
		t.Errorf("after a refused Reload: got %q, want %q", got, want)
	}
	if names := changedNames(next.tools, refused.tools, toolName); !slices.Equal(names, []string{"t_d"}) {
		t.Errorf("changedNames: got %v, want [t_d]", names)
	}
}

package mcpbridge

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// fakeBackend serves fixed tools and answers calls with call.
type fakeBackend struct {
	tools []host.Tool
	call  func(ctx context.Context, req *host.CallRequest) *host.CallResult
}

func (f *fakeBackend) Tools(string) ([]host.Tool, error) { return f.tools, nil }

func (f *fakeBackend) Call(ctx context.Context, req *host.CallRequest) (*host.CallResult, error) {
	return f.call(ctx, req), nil
}

func (f *fakeBackend) RenderView(context.Context, string, sdk.RawViewState) (string, error) {
	return "", host.ErrNoView
}

// manifestTool is a rendered tool with an empty object input and the given
// result schema.
func manifestTool(name, resultSchema string) manifest.Tool {
	return manifest.Tool{
		Name:         name,
		Description:  "Test tool. Call it in tests.",
		Kind:         manifest.KindRendered,
		InputSchema:  json.RawMessage(`{"type":"object","additionalProperties":false}`),
		ResultSchema: json.RawMessage(resultSchema),
	}
}

// connectServer connects a client to srv over in-memory transports.
func connectServer(t *testing.T, srv *Server) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

package mcpbridge

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/taskstore"
	"github.com/modkit/modkit/sdk"
)

func TestCallerOf(t *testing.T) {
	t.Parallel()
	ada := &sdk.Caller{Subject: "ada", ClientID: "app-1"}
	if got := callerOf(mcpauth.WithPrincipal(t.Context(), &mcpauth.Principal{Subject: "ada", Caller: ada}), nil); got != ada {
		t.Errorf("with a principal: got %+v, want its caller %+v", got, ada)
	}
	for _, scopes := range [][]string{nil, {}, {"notes.read"}} {
		got := callerOf(t.Context(), host.LocalCaller(scopes))
		if want := host.LocalCaller(scopes); !reflect.DeepEqual(got, want) || !strings.HasPrefix(got.Subject, "local:") {
			t.Errorf("without a principal, scopes %q: got %+v, want the local user %+v", scopes, got, want)
		}
	}
}

// TestTaskCaller: a call that becomes a task names its caller to the
// host, as any call does.
func TestTaskCaller(t *testing.T) {
	t.Parallel()
	is := mcpauthtest.NewIssuer(t)
	const resource = "https://mcp.example/mcp"
	b := newTaskBackend()
	defer close(b.release)
	callers := make(chan *sdk.Caller, 1)
	call := b.call
	b.call = func(ctx context.Context, req *host.CallRequest) *host.CallResult {
		if req.Tool == "flash" {
			callers <- req.Caller
		}
		return call(ctx, req)
	}
	url := authTaskServer(t, b, taskstore.NewMemory(), is, resource, nil)
	res, e := postBy(t, clientOf(t, is, resource, "ada", "app-1"), url, "tools/call", "flash", map[string]any{"name": "flash", "arguments": map[string]any{}}, withTasks)
	if e != nil {
		t.Fatalf("got %v %v", res, e)
	}
	if got := <-callers; got == nil || got.Subject != "ada" || got.ClientID != "app-1" {
		t.Errorf("the host was named caller %+v, want ada by app-1", got)
	}
}

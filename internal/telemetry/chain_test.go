package telemetry_test

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/internal/telemetry"
	"github.com/modkit/modkit/internal/testenv"
)

// TestChain follows one tool call from an MCP client's span, through the
// MCP request and the host's call, into the mod's process, down to the
// span the tool's author started.
func TestChain(t *testing.T) {
	ctx := context.Background()
	exp := tracetest.NewInMemoryExporter()
	tel, err := telemetry.Setup(ctx, &telemetry.Options{Exporter: exp})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	cs := connect(t, "testdata/traced")

	cctx, client := otel.Tracer("client").Start(ctx, "client call")
	meta := propagation.MapCarrier{}
	otel.GetTextMapPropagator().Inject(cctx, meta)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name: "traced_count", Arguments: json.RawMessage(`{"text":"four"}`),
		Meta: mcp.Meta{"traceparent": meta["traceparent"]},
	})
	client.End()
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}

	spans := exp.GetSpans()
	byName := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = s
	}
	chain := []string{"client call", "tools/call traced_count", "call traced_count", "run_tool traced_count", "count bytes"}
	for i, name := range chain {
		s, ok := byName[name]
		if !ok {
			t.Fatalf("no span %q among %v", name, names(spans))
		}
		if s.SpanContext.TraceID() != client.SpanContext().TraceID() {
			t.Errorf("span %q: trace %s, want the client's %s", name, s.SpanContext.TraceID(), client.SpanContext().TraceID())
		}
		if i > 0 {
			if got, want := s.Parent.SpanID(), byName[chain[i-1]].SpanContext.SpanID(); got != want {
				t.Errorf("span %q: parent %s, want %q's %s", name, got, chain[i-1], want)
			}
		}
	}
	req := byName["tools/call traced_count"]
	if req.SpanKind != trace.SpanKindServer {
		t.Errorf("request span kind %v, want server", req.SpanKind)
	}
	want := map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "traced_count", "gen_ai.operation.name": "execute_tool"}
	for _, kv := range req.Attributes {
		if w, ok := want[string(kv.Key)]; ok {
			if kv.Value.AsString() != w {
				t.Errorf("request span %s = %q, want %q", kv.Key, kv.Value.AsString(), w)
			}
			delete(want, string(kv.Key))
		}
	}
	if len(want) > 0 {
		t.Errorf("request span lacks %v", want)
	}
	author := byName["count bytes"]
	if author.Resource.String() != req.Resource.String() {
		t.Errorf("the author's span has resource %s, want the host's %s", author.Resource, req.Resource)
	}
}

func names(spans tracetest.SpanStubs) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

// connect loads the mods and returns an MCP client session of a server
// that serves them.
func connect(t *testing.T, dirs ...string) *mcp.ClientSession {
	t.Helper()
	cacheDir, err := testenv.ModCache()
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.Load(dirs, &host.Options{CacheDir: cacheDir, Progress: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	srv, err := mcpbridge.NewServer(h, nil)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

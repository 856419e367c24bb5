package mcpbridge

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/telemetry"
)

// TestObserveNotificationWithoutParams: a notification whose params are
// absent (a typed nil) passes through the telemetry middleware, as every
// session's notifications/initialized does.
func TestObserveNotificationWithoutParams(t *testing.T) {
	ctx := context.Background()
	tel, err := telemetry.Setup(ctx, &telemetry.Options{Metrics: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	called := false
	next := func(context.Context, string, mcp.Request) (mcp.Result, error) {
		called = true
		return nil, nil
	}
	if _, err := observe(next)(ctx, "notifications/initialized", &mcp.InitializedRequest{}); err != nil {
		t.Fatal(err)
	}
	if !called {
		t.Fatal("the middleware did not call the next handler")
	}
}

// TestRequestIDOnSpan: a tools/call over HTTP, in a session (the session
// direct path, and the SDK's) and sessionless (the direct path), gets a
// request span with the request's JSON-RPC id; a client's own id header
// is not believed.
func TestRequestIDOnSpan(t *testing.T) {
	ctx := context.Background()
	exp := tracetest.NewInMemoryExporter()
	tel, err := telemetry.Setup(ctx, &telemetry.Options{Exporter: exp, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	b := &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("echo", "")}},
		call: func(_ context.Context, req *host.CallRequest) *host.CallResult {
			return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "ok"}
		},
	}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(nil)
	ts := httptest.NewServer(h)
	defer ts.Close()
	for _, version := range []string{"2025-11-25", "2025-11-25 SDK", "2026-07-28"} {
		version, sdkOnly := strings.CutSuffix(version, " SDK")
		if sdkOnly {
			h.live = nil
		}
		exp.Reset()
		// A client that cannot be asked for its roots: the session direct
		// path takes its calls.
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: spoofID{}}},
			&mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("%s: connect: %v", version, err)
		}
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}}); err != nil {
			t.Fatalf("%s: CallTool: %v", version, err)
		}
		cs.Close()
		var id string
		for _, s := range exp.GetSpans() {
			if s.Name != "tools/call echo" {
				continue
			}
			for _, kv := range s.Attributes {
				if kv.Key == "jsonrpc.request.id" {
					id = kv.Value.Emit()
				}
			}
		}
		if _, err := strconv.Atoi(id); err != nil {
			t.Errorf("%s: the tools/call span's jsonrpc.request.id is %q, want the client's integer id", version, id)
		}
		if version == "2025-11-25" && !sdkOnly && h.live.served.Load() != 1 {
			t.Errorf("%s: the session direct path took %d calls, want 1", version, h.live.served.Load())
		}
	}
}

// TestRequestIDOnSpanStdio: over stdio too, each request's span has the
// request's JSON-RPC id, a string as it is, a number in decimal.
func TestRequestIDOnSpanStdio(t *testing.T) {
	ctx := context.Background()
	exp := tracetest.NewInMemoryExporter()
	tel, err := telemetry.Setup(ctx, &telemetry.Options{Exporter: exp, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	b := &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("echo", "")}},
		call: func(_ context.Context, req *host.CallRequest) *host.CallResult {
			return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "ok"}
		},
	}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"call-a","method":"tools/call","params":{"name":"echo","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":42,"method":"tools/list"}`,
	}, "\n")
	if err := srv.ServeStdio(ctx, strings.NewReader(in), io.Discard, nil); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	got := map[string]string{} // span name -> jsonrpc.request.id
	for _, s := range exp.GetSpans() {
		got[s.Name] = "(none)"
		for _, kv := range s.Attributes {
			if kv.Key == "jsonrpc.request.id" {
				got[s.Name] = kv.Value.Emit()
			}
		}
	}
	want := map[string]string{"initialize": "1", "notifications/initialized": "(none)", "tools/call echo": "call-a", "tools/list": "42"}
	for name, id := range want {
		if got[name] != id {
			t.Errorf("span %q: jsonrpc.request.id %q, want %q (spans: %v)", name, got[name], id, got)
		}
	}
}

// spoofID sends every request with a client's own request id header.
type spoofID struct{}

func (spoofID) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set(requestIDHeader, "spoofed")
	return http.DefaultTransport.RoundTrip(req)
}

func TestTagRequestID(t *testing.T) {
	ctx := context.Background()
	tel, err := telemetry.Setup(ctx, &telemetry.Options{Exporter: tracetest.NewInMemoryExporter(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	for raw, want := range map[string]string{`7`: "7", ` "abc" `: "abc", `null`: "", ``: "", `"bad`: ""} {
		h := http.Header{requestIDHeader: {"spoofed"}}
		tagRequestID(h, json.RawMessage(raw))
		if got := h.Get(requestIDHeader); got != want {
			t.Errorf("id %s: header %q, want %q", raw, got, want)
		}
	}
}

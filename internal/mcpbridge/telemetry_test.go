package mcpbridge

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

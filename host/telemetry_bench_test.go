package host_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/modkit/modkit/internal/telemetry"
)

// BenchmarkCallTraced is BenchmarkCallTrivial with every span sampled and
// batched to an in-memory exporter.
func BenchmarkCallTraced(b *testing.B) {
	ctx := context.Background()
	tel, err := telemetry.Setup(ctx, &telemetry.Options{
		Batched: tracetest.NewNoopExporter(),
		Getenv:  func(string) string { return "" },
	})
	if err != nil {
		b.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	benchCall(b, "quick_echo", `{"text":"hi"}`, nil)
}

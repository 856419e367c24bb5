package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/modkit/modkit/internal/telemetry"
)

// MetricsPath is where the metrics are served, in Prometheus text format.
const MetricsPath = "/metrics"

// startTelemetry turns on what the OTEL_* environment asks for (spans on
// stderr for OTEL_TRACES_EXPORTER=console), and metrics when metrics is
// set; spans, when set, receives every span. The returned stop flushes what is pending.
func (e *env) startTelemetry(ctx context.Context, metrics bool, spans sdktrace.SpanProcessor) (*telemetry.Telemetry, func(), error) {
	t, err := telemetry.Setup(ctx, &telemetry.Options{Metrics: metrics, Console: e.stderr, Processor: spans})
	if err != nil {
		return nil, nil, err
	}
	return t, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := t.Shutdown(sctx); err != nil {
			fmt.Fprintf(e.stderr, "modhost: telemetry: %v\n", err)
		}
	}, nil
}

// serveMetrics serves the metrics at http://addr/metrics until ctx is
// done, saying where on stderr once it listens.
func (e *env) serveMetrics(ctx context.Context, addr string, t *telemetry.Telemetry) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+MetricsPath, t.MetricsHandler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stderr, "modhost: serving metrics at http://%s%s\n", ln.Addr(), MetricsPath)
	go hs.Serve(ln)
	context.AfterFunc(ctx, func() { hs.Close() })
	return nil
}

// logHandler is the handler of the host's logs: text, or JSON lines with
// --log-format json; either way with the trace and span ids of the context
// a record is logged with.
func (e *env) logHandler(level slog.Leveler) slog.Handler {
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(e.stderr, opts)
	if e.logFormat == "json" {
		h = slog.NewJSONHandler(e.stderr, opts)
	}
	return telemetry.LogHandler(h)
}

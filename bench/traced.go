package main

import (
	"context"
	"fmt"
	"sync/atomic"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/modkit/modkit/internal/telemetry"
)

// tracedVsCall compares the echo call traced, every span sampled and
// batched to an exporter that counts them, with the same call untraced.
// The traced call records the host's call span and the mod's handler span,
// which crosses back with the outcome (on the call lane's outcome frame,
// or in the RPC's trailer where there is no lane).
func tracedVsCall(ctx context.Context, e *env) (row, error) {
	exp := &countingExporter{}
	tel, traced, plain, err := tracedCalls(ctx, e, exp)
	if err != nil {
		return row{}, err
	}
	defer tel.Shutdown(ctx)
	// CPU per call, host and mod, beside the latencies: on a busy machine
	// it is the steadier measure of what tracing costs.
	var cpu [2][2][]float64 // [traced, plain][host, mod]
	a, b, err := pairChunkedCPU(ctx, e.cfg, metered{traced, e.hostPid, &cpu[0]}, metered{plain, e.hostPid, &cpu[1]})
	if err != nil {
		return row{}, err
	}
	if err := tel.Shutdown(ctx); err != nil {
		return row{}, err
	}
	// Each traced call exports at least the host's span and the mod's.
	if want := int64(2 * e.cfg.rounds * (e.cfg.warmup + e.cfg.calls)); exp.spans.Load() < want {
		return row{}, fmt.Errorf("traced calls exported %d spans, want at least %d", exp.spans.Load(), want)
	}
	r := compare("", latencySide("host.Call traced", a), latencySide("host.Call", b), roundRatios(a, b), goal{})
	r.notes = []string{fmt.Sprintf("CPU per call (median of rounds): traced %s µs host + %s µs mod; untraced %s µs host + %s µs mod",
		num(median(cpu[0][0])), num(median(cpu[0][1])), num(median(cpu[1][0])), num(median(cpu[1][1])))}
	return r, nil
}

// tracedCalls sets tracing up with exp and returns the echo call with
// tracing on and off, both warmed alike past the mod process's first
// calls. The caller shuts tel down.
func tracedCalls(ctx context.Context, e *env, exp sdktrace.SpanExporter) (tel *telemetry.Telemetry, traced, plain call, err error) {
	h, err := e.modHost(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	tel, err = telemetry.Setup(ctx, &telemetry.Options{Batched: exp, Getenv: func(string) string { return "" }})
	if err != nil {
		return nil, nil, nil, err
	}
	plain = hostCall(h, e.session(), "echo", nil)
	traced = func(ctx context.Context) error {
		tel.SetTracing(true)
		defer tel.SetTracing(false)
		return plain(ctx)
	}
	tel.SetTracing(false)
	if err := warmAll(ctx, processWarmup*e.cfg.warmup, traced, plain); err != nil {
		tel.Shutdown(ctx)
		return nil, nil, nil, err
	}
	return tel, traced, plain, nil
}

// countingExporter counts the spans it is given, and keeps none.
type countingExporter struct{ spans atomic.Int64 }

func (c *countingExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	c.spans.Add(int64(len(spans)))
	return nil
}

func (c *countingExporter) Shutdown(context.Context) error { return nil }

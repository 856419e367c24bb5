package telemetry

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Options configure Setup. A nil *Options means defaults.
type Options struct {
	// Metrics keeps metrics, for MetricsHandler.
	Metrics bool
	// Console receives the spans when OTEL_TRACES_EXPORTER is "console".
	// Default: os.Stderr (stdout may be a protocol's).
	Console io.Writer
	// Exporter, when set, receives every span synchronously, in place of
	// the environment's exporter: for tests (sdk/trace/tracetest).
	Exporter sdktrace.SpanExporter
	// Batched, when set, receives every span in batches, as the
	// environment's exporter would, in its place: for benchmarks.
	Batched sdktrace.SpanExporter
	// Processor, when set, receives every span too, whatever the
	// environment says: the workbench's timeline, a benchmark's batcher.
	Processor sdktrace.SpanProcessor
	// LogExporter, when set, receives every log record synchronously, in
	// place of the exporter OTEL_LOGS_EXPORTER names: for tests.
	LogExporter sdklog.Exporter
	// Getenv reads the environment; default os.Getenv.
	Getenv func(string) string
}

// Telemetry is what Setup turned on; Shutdown flushes and turns it off.
type Telemetry struct {
	tp      *sdktrace.TracerProvider
	mp      *sdkmetric.MeterProvider
	lp      *sdklog.LoggerProvider
	metrics http.Handler
}

var (
	tracingOn  atomic.Bool
	meteringOn atomic.Bool
)

// Tracing reports whether spans are recorded.
func Tracing() bool { return tracingOn.Load() }

// Setup turns on what the environment and opts ask for, as the process's
// global providers. It fails on an exporter name it does not know.
func Setup(ctx context.Context, opts *Options) (*Telemetry, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Console == nil {
		o.Console = os.Stderr
	}
	t := &Telemetry{}
	res, err := newResource(ctx, o.Getenv)
	if err != nil {
		return nil, err
	}
	exp, err := spanExporter(ctx, &o)
	if err != nil {
		return nil, err
	}
	if exp != nil || o.Processor != nil {
		sampler := samplerFromEnv(o.Getenv, o.Console)
		m := &modExport{conv: modConverter{res: res, limits: sdktrace.NewSpanLimits()}, sampler: sampler}
		switch {
		case o.Exporter != nil:
			m.procs = append(m.procs, sdktrace.NewSimpleSpanProcessor(exp))
		case exp != nil:
			b := newBatcher(exp, &m.conv, o.Getenv)
			m.procs = append(m.procs, b)
			if o.Processor == nil {
				// Nothing else waits for a mod's spans: they are decoded
				// when the batch is exported, off the call's path.
				m.batcher = b
			}
		}
		if o.Processor != nil {
			m.procs = append(m.procs, o.Processor)
		}
		popts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res), sdktrace.WithIDGenerator(randomIDs{}), sdktrace.WithSampler(sampler)}
		for _, p := range m.procs {
			popts = append(popts, sdktrace.WithSpanProcessor(p))
		}
		t.tp = sdktrace.NewTracerProvider(popts...)
		ht := t.tp.Tracer(tracerName)
		hostTracer.Store(&ht)
		modSink.Store(m)
		otel.SetTracerProvider(t.tp)
		otel.SetTextMapPropagator(Propagator)
		tracingOn.Store(true)
	}
	if t.lp, err = setupLogs(ctx, &o, res); err != nil {
		t.Shutdown(ctx)
		return nil, err
	}
	readers, err := metricReaders(ctx, &o)
	if err != nil {
		t.Shutdown(ctx)
		return nil, err
	}
	if o.Metrics || len(readers) > 0 {
		if err := t.setupMetrics(res, o.Metrics, readers); err != nil {
			t.Shutdown(ctx)
			return nil, err
		}
	}
	return t, nil
}

// newResource describes the process: service.name modhost unless
// OTEL_SERVICE_NAME says otherwise, with OTEL_RESOURCE_ATTRIBUTES
// ("key=value,…", values percent-encoded).
func newResource(ctx context.Context, getenv func(string) string) (*resource.Resource, error) {
	attrs := []attribute.KeyValue{attribute.String("service.name", "modhost")}
	for _, pair := range strings.Split(getenv("OTEL_RESOURCE_ATTRIBUTES"), ",") {
		k, v, ok := strings.Cut(pair, "=")
		if !ok || strings.TrimSpace(k) == "" {
			continue
		}
		if u, err := url.PathUnescape(strings.TrimSpace(v)); err == nil {
			v = u
		}
		attrs = append(attrs, attribute.String(strings.TrimSpace(k), v))
	}
	if name := getenv("OTEL_SERVICE_NAME"); name != "" {
		attrs = append(attrs, attribute.String("service.name", name))
	}
	res, err := resource.New(ctx, resource.WithAttributes(attrs...), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	return res, nil
}

// spanExporter returns the exporter OTEL_TRACES_EXPORTER names, or nil for
// none.
func spanExporter(ctx context.Context, o *Options) (sdktrace.SpanExporter, error) {
	if o.Exporter != nil {
		return o.Exporter, nil
	}
	if o.Batched != nil {
		return o.Batched, nil
	}
	switch name := strings.TrimSpace(o.Getenv("OTEL_TRACES_EXPORTER")); name {
	case "", "none":
		return nil, nil
	case "console":
		return stdouttrace.New(stdouttrace.WithWriter(o.Console))
	case "otlp":
		if otlpProtocol(o.Getenv, "TRACES") == "grpc" {
			return otlptracegrpc.New(ctx)
		}
		return otlptracehttp.New(ctx)
	default:
		return nil, fmt.Errorf("telemetry: OTEL_TRACES_EXPORTER=%q: want otlp, console or none", name)
	}
}

// setupMetrics keeps metrics for readers, and for MetricsHandler when
// prometheus is set.
func (t *Telemetry) setupMetrics(res *resource.Resource, prom bool, readers []sdkmetric.Reader) error {
	mopts := []sdkmetric.Option{sdkmetric.WithResource(res)}
	for _, r := range readers {
		mopts = append(mopts, sdkmetric.WithReader(r))
	}
	if prom {
		reg := prometheus.NewRegistry()
		exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutScopeInfo())
		if err != nil {
			return fmt.Errorf("telemetry: prometheus: %w", err)
		}
		mopts = append(mopts, sdkmetric.WithReader(exp))
		t.metrics = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	}
	t.mp = sdkmetric.NewMeterProvider(mopts...)
	otel.SetMeterProvider(t.mp)
	if err := newInstruments(t.mp); err != nil {
		return err
	}
	meteringOn.Store(true)
	return nil
}

// SetTracing turns span recording off and on again, for a comparison of
// the two; it does nothing when Setup turned no tracing on.
func (t *Telemetry) SetTracing(on bool) {
	if t != nil && t.tp != nil {
		tracingOn.Store(on)
	}
}

// MetricsHandler serves the metrics in Prometheus text format; nil when
// Setup kept no metrics.
func (t *Telemetry) MetricsHandler() http.Handler {
	if t == nil {
		return nil
	}
	return t.metrics
}

// Shutdown exports what is pending and turns telemetry off.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	var errs []error
	if t.tp != nil {
		// The mods' spans waiting in the batcher are exported with
		// the rest.
		errs = append(errs, t.tp.ForceFlush(ctx))
		tracingOn.Store(false)
		hostTracer.Store(nil)
		modSink.Store(nil)
		errs = append(errs, t.tp.Shutdown(ctx))
	}
	if t.lp != nil {
		activityLogger.Store(nil)
		errs = append(errs, t.lp.Shutdown(ctx))
	}
	if t.mp != nil {
		meteringOn.Store(false)
		errs = append(errs, t.mp.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

// randomIDs are random trace and span ids. Ids need to be unique, not
// secret: math/rand/v2's generator is seeded from the system's randomness
// and is far cheaper than the SDK's default, crypto/rand.
type randomIDs struct{}

func (randomIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	var tid trace.TraceID
	binary.LittleEndian.PutUint64(tid[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(tid[8:], rand.Uint64()|1)
	return tid, randomIDs{}.NewSpanID(ctx, tid)
}

func (randomIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	var id trace.SpanID
	binary.LittleEndian.PutUint64(id[:], rand.Uint64()|1)
	return id
}

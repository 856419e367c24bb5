package telemetry

import (
	"context"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// metricReaders returns the readers OTEL_METRICS_EXPORTER asks for, a
// comma-separated list: "otlp" pushes the metrics every
// OTEL_METRIC_EXPORT_INTERVAL (default 60 s) to the OTLP endpoint the
// OTEL_EXPORTER_OTLP_* variables name, over HTTP/protobuf unless
// OTEL_EXPORTER_OTLP_METRICS_PROTOCOL (or OTEL_EXPORTER_OTLP_PROTOCOL) is
// "grpc". "prometheus" and "none" add none (the Prometheus format is
// served at /metrics whatever the variable says); another name is reported
// on Console rather than refused, as the variable may be set for every
// program of a machine.
func metricReaders(ctx context.Context, o *Options) ([]sdkmetric.Reader, error) {
	var readers []sdkmetric.Reader
	for _, name := range strings.Split(o.Getenv("OTEL_METRICS_EXPORTER"), ",") {
		switch name = strings.TrimSpace(name); name {
		case "", "none", "prometheus":
		case "otlp":
			exp, err := otlpMetricExporter(ctx, o.Getenv)
			if err != nil {
				return nil, fmt.Errorf("telemetry: OTEL_METRICS_EXPORTER=otlp: %w", err)
			}
			readers = append(readers, sdkmetric.NewPeriodicReader(exp))
		default:
			fmt.Fprintf(o.Console, "telemetry: OTEL_METRICS_EXPORTER=%q is not supported (otlp, prometheus or none); metrics are served in Prometheus format at /metrics\n", name)
		}
	}
	return readers, nil
}

// otlpMetricExporter is the OTLP exporter of the protocol the environment
// names; the exporter reads the endpoint, headers, timeout, compression
// and TLS settings from the environment itself.
func otlpMetricExporter(ctx context.Context, getenv func(string) string) (sdkmetric.Exporter, error) {
	switch proto := otlpProtocol(getenv, "METRICS"); proto {
	case "grpc":
		return otlpmetricgrpc.New(ctx)
	case "", "http/protobuf":
		return otlpmetrichttp.New(ctx)
	default:
		return nil, fmt.Errorf("OTLP protocol %q: want grpc or http/protobuf", proto)
	}
}

// otlpProtocol is the OTLP protocol the environment names for signal
// (TRACES, METRICS, LOGS): its own variable, else the general one; "" when
// neither is set.
func otlpProtocol(getenv func(string) string, signal string) string {
	if proto := getenv("OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL"); proto != "" {
		return proto
	}
	return getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
}

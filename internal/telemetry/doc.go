// Package telemetry is the host's OpenTelemetry: traces, metrics and the
// trace ids in its logs.
//
// # Setup
//
// [Setup] reads the standard OTEL_* environment: OTEL_TRACES_EXPORTER is
// "none" (the default), "console" (spans as JSON lines on the writer the
// caller gives, stderr for modhost) or "otlp" (OTEL_EXPORTER_OTLP_PROTOCOL
// "http/protobuf", the default, or "grpc"; endpoint, headers and the rest
// from the OTLP exporters' own variables). OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES name the service ("modhost" by default), and
// OTEL_TRACES_SAMPLER picks the sampler; OTEL_BSP_SCHEDULE_DELAY,
// OTEL_BSP_MAX_QUEUE_SIZE and OTEL_BSP_MAX_EXPORT_BATCH_SIZE shape the
// batches. Metrics are kept when the caller serves them
// ([Telemetry.MetricsHandler], Prometheus text format); no OTLP metrics
// exporter is linked, and OTEL_METRICS_EXPORTER=otlp only earns a note on
// the console writer.
//
// # Cost
//
// Until Setup turns them on, every function here returns at once: a call
// the host runs with tracing and metrics off allocates nothing more.
//
// # Spans
//
// A span per MCP request ([StartRequest]) follows OpenTelemetry's MCP
// conventions; under it the host's call ([StartCall]) and its steps
// ([StartStep]): validation, hooks, approval, questions, the mod's build and
// start. The mod's own spans come back over the mod's connection
// (internal/modtrace) and are exported here with their ids, so they nest
// under the call.
package telemetry

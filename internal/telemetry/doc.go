// Package telemetry is the host's OpenTelemetry: traces, metrics, activity
// logs as log records, and the trace ids in its logs.
//
// # Setup
//
// [Setup] reads the standard OTEL_* environment: OTEL_TRACES_EXPORTER is
// "none" (the default), "console" (spans as JSON lines on the writer the
// caller gives, stderr for modhost) or "otlp" (OTEL_EXPORTER_OTLP_PROTOCOL
// "http/protobuf", the default, or "grpc"; endpoint, headers and the rest
// from the OTLP exporters' own variables). OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES name the service ("modhost" by default), and
// OTEL_TRACES_SAMPLER picks the sampler (OTEL_TRACES_SAMPLER_ARG the ratio of
// the ratio-based ones); OTEL_BSP_SCHEDULE_DELAY,
// OTEL_BSP_MAX_QUEUE_SIZE and OTEL_BSP_MAX_EXPORT_BATCH_SIZE shape the
// batches. Metrics are kept when the caller serves them
// ([Telemetry.MetricsHandler], Prometheus text format), and pushed over
// OTLP when OTEL_METRICS_EXPORTER lists "otlp" (OTEL_EXPORTER_OTLP_PROTOCOL
// or OTEL_EXPORTER_OTLP_METRICS_PROTOCOL "http/protobuf", the default, or
// "grpc"; every OTEL_METRIC_EXPORT_INTERVAL, 60 s by default). Another
// exporter name earns a note on the console writer. OTEL_LOGS_EXPORTER,
// "none" by default, "console" or "otlp" (OTEL_EXPORTER_OTLP_LOGS_PROTOCOL
// or OTEL_EXPORTER_OTLP_PROTOCOL), sends each line of a call's activity
// log as a log record ([ActivityLog]) in the call's trace.
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
// start. The call's span, one per tool call, is recorded without the SDK
// (ids, times, outcome) and made an OpenTelemetry span when it is
// exported, like the mod's spans. The mod's own spans come back over the mod's connection
// ([ModDialOptions]; internal/modtrace is the mod's side) and are exported
// here with their ids, so they nest under the call. The host decodes a
// mod's batch of spans itself into finished spans for its processors (no
// span is started again through the SDK); with a batching exporter it
// does so when the batch is exported, off the call's path. The MCP bridge
// sets jsonrpc.request.id on the request's span, over HTTP and stdio.
//
// # Metrics
//
// Besides mcp.server.operation.duration, the modkit.* instruments count
// calls by tool and outcome, calls in flight, mod starts, crashes and
// restarts, build time, input refusals and approval and question outcomes;
// [TimedStore] times the task store's operations
// (modkit.taskstore.operation.duration).
package telemetry

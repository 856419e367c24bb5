// Package modtrace is a mod's side of tracing: it carries the trace
// context of a call into the mod and the mod's finished spans back to the
// host, without linking OpenTelemetry into the mod.
//
// # Into the mod
//
// The host puts the caller's trace context (W3C traceparent, tracestate
// and baggage) in each request's gRPC metadata. The mod's server
// interceptors ([ServerUnary], [ServerStream]) take it out into the
// handler's context, with the [Recorder] that keeps the call's spans.
// [Start] starts a span under it: the mod runtime's spans (run_tool,
// run_hooks) are such spans. A handler's run_tool span comes from a pool
// ([StartReused]) and goes back to it once the call lane's outcome has
// carried its record, and the lane encodes the spans into a buffer it
// reuses ([LaneSpans]): a traced call allocates the two contexts only.
//
// # OpenTelemetry in a mod
//
// A mod whose package imports go.opentelemetry.io/otel gets the bridge
// (sdk/otelbridge) linked in by modgen: it makes the process's global
// TracerProvider record into the call's Recorder and, through [SetBridge],
// puts every span context this package sets in a context where OpenTelemetry
// reads it, so an author's otel.Tracer(...).Start(tc.Context(), …) nests
// under the call. A mod that does not import OpenTelemetry links none of it.
//
// # Back to the host
//
// A mod exports nothing itself. The server interceptors send the spans the
// Recorder finished back in the binary trailer [TrailerKey] of the RPC that
// follows, and the host decodes them into finished spans for its own
// exporters (internal/telemetry), keeping their ids. A span finished after
// its RPC returned travels with the mod's next RPC.
//
// A call that carries no sampled trace context records nothing and costs a
// metadata lookup.
package modtrace

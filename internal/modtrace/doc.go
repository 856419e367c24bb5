// Package modtrace carries OpenTelemetry traces across the process boundary
// between the host and a mod.
//
// # Into the mod
//
// The host's gRPC client interceptors ([ClientUnary], [ClientStream]) put
// the caller's trace context (W3C traceparent, tracestate and baggage) in
// the request's metadata. The mod's server interceptors ([ServerUnary],
// [ServerStream]) take it out, so the handler's context, and
// sdk.ToolContext.Context, carry the call's span: an author's own spans
// (otel.Tracer(...).Start) nest under it.
//
// # Back to the host
//
// A mod exports nothing itself. Its [Recorder], the process's global
// TracerProvider, keeps the spans it finishes; the server interceptors send
// them back in the binary trailer "modkit-spans-bin" of the RPC that
// follows, and the host's interceptors replay them through the host's own
// TracerProvider ([Replay]), keeping their ids, so they reach whatever
// exporter the host's environment configures. A span finished after its RPC
// returned travels with the mod's next RPC.
//
// A call that carries no sampled trace context records nothing: the
// recorder's spans are then the parent's non-recording span, and the
// interceptors add no metadata.
//
// The package depends on OpenTelemetry's API only, never its SDK, to keep
// mod binaries small.
package modtrace

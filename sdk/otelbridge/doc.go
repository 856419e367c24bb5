// Package otelbridge hands a mod's OpenTelemetry spans to the host.
//
// Linked into a mod, it makes the process's global TracerProvider record
// spans under the call that runs them, so an author's
//
//	ctx, span := otel.Tracer("example.com/tasks").Start(tc.Context(), "parse feed")
//
// nests under the call, and the host exports it with its own spans. modgen
// imports it, in the file it generates, for a mod whose package imports
// go.opentelemetry.io/otel; a mod that does not links no OpenTelemetry.
// Nothing else needs to import it.
package otelbridge

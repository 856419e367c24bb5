package serve

import "github.com/modkit/modkit/internal/modtrace"

// tracing returns the recorder of the mod's spans, which go back to the
// host. An author's otel.Tracer(...) spans record into it too when the mod
// links sdk/otelbridge (modgen imports it for a mod that uses
// OpenTelemetry).
func tracing() *modtrace.Recorder { return modtrace.NewRecorder() }

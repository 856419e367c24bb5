package serve

import (
	"go.opentelemetry.io/otel"

	"github.com/modkit/modkit/internal/modtrace"
)

// tracing makes the process's global TracerProvider a recorder whose spans
// go back to the host, and returns it. An author's otel.Tracer(...) spans
// then nest under the call that runs them, and the host exports them.
func tracing() *modtrace.Recorder {
	r := modtrace.NewRecorder()
	otel.SetTracerProvider(r)
	otel.SetTextMapPropagator(modtrace.Propagator)
	return r
}

package telemetry

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// samplerFromEnv returns the sampler OTEL_TRACES_SAMPLER names, with
// OTEL_TRACES_SAMPLER_ARG the ratio of the ratio-based ones: the
// provider's, and the one the host's call spans ([StartCall]) ask, which
// the SDK does not start. A name or ratio it does not know earns a note on
// console and the default, parentbased_always_on, as the SDK does.
func samplerFromEnv(getenv func(string) string, console io.Writer) sdktrace.Sampler {
	name := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER")))
	ratio := func() float64 {
		arg := strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER_ARG"))
		if arg == "" {
			return 1
		}
		r, err := strconv.ParseFloat(arg, 64)
		if err != nil || r < 0 || r > 1 {
			fmt.Fprintf(console, "telemetry: OTEL_TRACES_SAMPLER_ARG=%q is not a ratio from 0 to 1; sampling every trace\n", arg)
			return 1
		}
		return r
	}
	switch name {
	case "always_on":
		return sdktrace.AlwaysSample()
	case "always_off":
		return sdktrace.NeverSample()
	case "traceidratio":
		return sdktrace.TraceIDRatioBased(ratio())
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample())
	case "parentbased_traceidratio":
		return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(ratio()))
	case "", "parentbased_always_on":
	default:
		fmt.Fprintf(console, "telemetry: OTEL_TRACES_SAMPLER=%q is not supported (always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio); using parentbased_always_on\n", name)
	}
	return sdktrace.ParentBased(sdktrace.AlwaysSample())
}

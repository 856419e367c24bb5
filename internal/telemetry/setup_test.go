package telemetry

import (
	"context"
	"strings"
	"testing"
)

// TestSetupFromEnvironment: OTEL_TRACES_EXPORTER picks the exporter, none
// by default, and a name Setup does not know is an error naming it.
func TestSetupFromEnvironment(t *testing.T) {
	ctx := context.Background()
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, name := range []string{"", "none"} {
		tel, err := Setup(ctx, &Options{Getenv: env(map[string]string{"OTEL_TRACES_EXPORTER": name})})
		if err != nil {
			t.Fatal(err)
		}
		if Tracing() {
			t.Errorf("OTEL_TRACES_EXPORTER=%q: tracing is on, want off", name)
		}
		tel.Shutdown(ctx)
	}
	_, err := Setup(ctx, &Options{Getenv: env(map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"})})
	if err == nil || !strings.Contains(err.Error(), `OTEL_TRACES_EXPORTER="zipkin": want otlp, console or none`) {
		t.Errorf("unknown exporter: got %v", err)
	}

	var console strings.Builder
	tel, err := Setup(ctx, &Options{Console: &console, Getenv: env(map[string]string{
		"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "svc", "OTEL_METRICS_EXPORTER": "logging"})})
	if err != nil {
		t.Fatal(err)
	}
	if !Tracing() {
		t.Fatal("OTEL_TRACES_EXPORTER=console: tracing is off")
	}
	_, s := StartCall(ctx, "tool")
	s.End()
	if err := tel.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if Tracing() {
		t.Error("tracing is on after Shutdown")
	}
	out := console.String()
	for _, want := range []string{`"Name":"call tool"`, `"Value":"svc"`, `OTEL_METRICS_EXPORTER="logging" is not supported`} {
		if !strings.Contains(out, want) {
			t.Errorf("console output lacks %s:\n%s", want, out)
		}
	}
}

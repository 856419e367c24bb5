package telemetry_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/telemetry"
)

// TestLogsExporterFromEnv checks that OTEL_LOGS_EXPORTER chooses where
// activity logs go, and that a name it does not know is refused.
func TestLogsExporterFromEnv(t *testing.T) {
	ctx := context.Background()
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

	var console bytes.Buffer
	tel, err := telemetry.Setup(ctx, &telemetry.Options{Console: &console, Getenv: env(map[string]string{"OTEL_LOGS_EXPORTER": "console"})})
	if err != nil {
		t.Fatal(err)
	}
	if !telemetry.Logging() {
		t.Fatal("got logging off with OTEL_LOGS_EXPORTER=console, want on")
	}
	telemetry.ActivityLog(ctx, "notes_count", "call-1", 1, "Counted 3 notes.")
	if err := tel.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if telemetry.Logging() {
		t.Error("got logging on after Shutdown, want off")
	}
	for _, want := range []string{"Counted 3 notes.", "notes_count", "call-1", "modkit.activity.log"} {
		if !strings.Contains(console.String(), want) {
			t.Errorf("console got %q, want it to hold %q", console.String(), want)
		}
	}

	tel, err = telemetry.Setup(ctx, &telemetry.Options{Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if telemetry.Logging() {
		t.Error("got logging on without OTEL_LOGS_EXPORTER, want off")
	}
	tel.Shutdown(ctx)

	_, err = telemetry.Setup(ctx, &telemetry.Options{Getenv: env(map[string]string{"OTEL_LOGS_EXPORTER": "syslog"})})
	if err == nil || !strings.Contains(err.Error(), `OTEL_LOGS_EXPORTER="syslog"`) {
		t.Errorf("got %v, want an error naming OTEL_LOGS_EXPORTER=\"syslog\"", err)
	}
}

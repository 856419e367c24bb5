package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/telemetry"
)

// memoryLogs keeps the log records exported to it.
type memoryLogs struct {
	mu      sync.Mutex
	records []sdklog.Record
}

func (m *memoryLogs) Export(_ context.Context, rs []sdklog.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range rs {
		m.records = append(m.records, r.Clone())
	}
	return nil
}

func (m *memoryLogs) Shutdown(context.Context) error   { return nil }
func (m *memoryLogs) ForceFlush(context.Context) error { return nil }

func (m *memoryLogs) take() []sdklog.Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	rs := m.records
	m.records = nil
	return rs
}

// TestActivityLogsToOpenTelemetry checks that each line of a call's
// activity log is an OpenTelemetry log record in the call's trace, whether
// the activity streams to the caller or comes with the outcome.
func TestActivityLogsToOpenTelemetry(t *testing.T) {
	ctx := context.Background()
	spans := tracetest.NewInMemoryExporter()
	logs := &memoryLogs{}
	tel, err := telemetry.Setup(ctx, &telemetry.Options{Exporter: spans, LogExporter: logs, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	h := load(t, nil, quickDir)

	for _, streamed := range []bool{true, false} {
		t.Run(fmt.Sprintf("streamed=%v", streamed), func(t *testing.T) {
			spans.Reset()
			logs.take()
			req := &host.CallRequest{Tool: "quick_activity", Input: json.RawMessage(`{"logs":3}`), Session: session(t)}
			if streamed {
				req.OnActivity = func(host.ActivityEvent) {}
			}
			res, err := h.Call(ctx, req)
			if err != nil || res.Status != host.StatusCompleted {
				t.Fatalf("got %v, %v, want completed", res, err)
			}
			var call tracetest.SpanStub
			for _, s := range spans.GetSpans() {
				if s.Name == "call quick_activity" {
					call = s
				}
			}
			if !call.SpanContext.IsValid() {
				t.Fatalf("no span of the call among %d", len(spans.GetSpans()))
			}

			records := logs.take()
			if len(records) != 3 {
				t.Fatalf("got %d log records, want 3, one per log line", len(records))
			}
			for i, r := range records {
				if got, want := r.Body().AsString(), fmt.Sprintf("step %d", i+1); got != want {
					t.Errorf("record %d: body %q, want %q", i, got, want)
				}
				if r.TraceID() != call.SpanContext.TraceID() {
					t.Errorf("record %d: trace %s, want the call's %s", i, r.TraceID(), call.SpanContext.TraceID())
				}
				if r.EventName() != telemetry.ActivityLogEvent {
					t.Errorf("record %d: event %q, want %q", i, r.EventName(), telemetry.ActivityLogEvent)
				}
				attrs := map[string]attribute.Value{}
				r.WalkAttributes(func(kv attribute.KeyValue) bool { attrs[string(kv.Key)] = kv.Value; return true })
				if got := attrs["gen_ai.tool.name"].AsString(); got != "quick_activity" {
					t.Errorf("record %d: tool %q, want quick_activity", i, got)
				}
				if got := attrs["modkit.call_id"].AsString(); got != res.CallID {
					t.Errorf("record %d: call id %q, want %q", i, got, res.CallID)
				}
				if got := attrs["modkit.activity.seq"].AsInt64(); got != int64(i+1) {
					t.Errorf("record %d: seq %d, want %d", i, got, i+1)
				}
			}
		})
	}
}

package telemetry

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// TestOffAllocatesNothing: with telemetry off, every hook the host's call
// path runs returns without allocating.
func TestOffAllocatesNothing(t *testing.T) {
	if Tracing() || Metering() {
		t.Fatal("telemetry is on before any Setup")
	}
	ctx := context.Background()
	meta := map[string]any{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}
	header := http.Header{}
	hooks := map[string]func(){
		"StartRequest": func() {
			_, s := StartRequest(ctx, "tools/call", "t", "session", "7", meta, header)
			s.Fail("tool_error", "failed")
			s.End()
		},
		"StartCall": func() {
			_, s := StartCall(ctx, "t")
			s.Set("modkit.step", "x")
			s.EndCall("t", "call_1", "label", "failed")
		},
		"StartStep": func() { _, s := StartStep(ctx, StepValidate, "x"); s.End() },
		"PastStep":  func() { PastStep(ctx, StepBuild, "m", time.Time{}, time.Time{}, false) },
		"metrics": func() {
			RecordOperation("tools/call", "t", "", time.Second)
			CallStarted("t")
			CallEnded("t", "completed")
			ModStarted("m", true)
			ModCrashed("m")
			BuildDone("m", time.Second, true)
			InputRefused("t", RefusedInvalid)
			ApprovalDone("t", "approved")
			QuestionDone("t", "form", "answered")
		},
		"ModSpans": func() { ModSpans("m")("") },
	}
	for name, f := range hooks {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times with telemetry off, want 0", name, n)
		}
	}
}

// TestCallMetricsAllocateNothing: with metrics on, counting a call of a
// tool already counted makes no attribute set again.
func TestCallMetricsAllocateNothing(t *testing.T) {
	ctx := context.Background()
	tel, err := Setup(ctx, &Options{Metrics: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	call := func() {
		CallStarted("t")
		CallEnded("t", "completed")
	}
	call()
	if n := testing.AllocsPerRun(100, call); n != 0 {
		t.Errorf("a call's metrics allocate %v times, want 0", n)
	}
}

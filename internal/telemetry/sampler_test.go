package telemetry

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

// TestSamplerFromEnv: OTEL_TRACES_SAMPLER picks the sampler, with the
// ratio of OTEL_TRACES_SAMPLER_ARG; what it does not know earns a note
// and the default.
func TestSamplerFromEnv(t *testing.T) {
	tests := []struct {
		sampler, arg, want, note string
	}{
		{"", "", "ParentBased{root:AlwaysOnSampler", ""},
		{"always_on", "", "AlwaysOnSampler", ""},
		{"always_off", "", "AlwaysOffSampler", ""},
		{"traceidratio", "0.25", "TraceIDRatioBased{0.25}", ""},
		{"parentbased_always_off", "", "ParentBased{root:AlwaysOffSampler", ""},
		{"parentbased_traceidratio", "0.5", "ParentBased{root:TraceIDRatioBased{0.5}", ""},
		{"traceidratio", "2", "TraceIDRatioBased{1}", "OTEL_TRACES_SAMPLER_ARG"},
		{"jaeger_remote", "", "ParentBased{root:AlwaysOnSampler", `OTEL_TRACES_SAMPLER="jaeger_remote"`},
	}
	for _, tt := range tests {
		env := map[string]string{"OTEL_TRACES_SAMPLER": tt.sampler, "OTEL_TRACES_SAMPLER_ARG": tt.arg}
		var console bytes.Buffer
		got := samplerFromEnv(func(k string) string { return env[k] }, &console).Description()
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s %s: got sampler %s, want %s", tt.sampler, tt.arg, got, tt.want)
		}
		if note := console.String(); tt.note == "" && note != "" || !strings.Contains(note, tt.note) {
			t.Errorf("%s %s: got note %q, want one naming %q", tt.sampler, tt.arg, note, tt.note)
		}
	}
}

// TestCallSpanSampled: a call's span, which the SDK does not start, obeys
// the sampler as the SDK's spans do: never sampled under always_off, and
// its steps then unsampled too.
func TestCallSpanSampled(t *testing.T) {
	ctx := context.Background()
	exp := tracing(t, map[string]string{"OTEL_TRACES_SAMPLER": "always_off"})
	cctx, call := StartCall(ctx, "echo")
	if sc := trace.SpanContextFromContext(cctx); !sc.IsValid() || sc.IsSampled() {
		t.Errorf("call's span context %v: want valid and not sampled", sc)
	}
	_, step := StartStep(cctx, StepHooks, "")
	step.End()
	call.EndCall("echo", "call_1", "", "")
	if got := exp.GetSpans(); len(got) != 0 {
		t.Errorf("got %d spans exported under always_off, want 0", len(got))
	}
}

// TestCallSpanParent: a call's span is the child of ctx's span and keeps
// its trace.
func TestCallSpanParent(t *testing.T) {
	ctx := context.Background()
	exp := tracing(t, nil)
	rctx, req := StartRequest(ctx, "tools/call", "echo", "", "1", nil, nil)
	_, call := StartCall(rctx, "echo")
	call.EndCall("echo", "call_1", "", "")
	req.End()
	spans := exp.GetSpans()
	if len(spans) != 2 {
		t.Fatalf("got %d spans, want 2", len(spans))
	}
	c, r := spans[0], spans[1]
	if c.Parent.SpanID() != r.SpanContext.SpanID() || c.SpanContext.TraceID() != r.SpanContext.TraceID() {
		t.Errorf("call span %s in trace %s under %s; want under the request's %s in trace %s",
			c.SpanContext.SpanID(), c.SpanContext.TraceID(), c.Parent.SpanID(), r.SpanContext.SpanID(), r.SpanContext.TraceID())
	}
	if c.Resource == nil || c.InstrumentationScope.Name != tracerName || c.EndTime.Before(c.StartTime) {
		t.Errorf("call span: resource %v, scope %q, %v to %v; want the host's resource and scope, and its times", c.Resource, c.InstrumentationScope.Name, c.StartTime, c.EndTime)
	}
}

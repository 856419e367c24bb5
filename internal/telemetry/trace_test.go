package telemetry

import (
	"context"
	"reflect"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/internal/modtrace"
)

// TestCallSpan: a call's span is named after its tool and carries the
// tool, the call's id and label and, when it failed, tool_error; its
// steps nest under it.
func TestCallSpan(t *testing.T) {
	ctx := context.Background()
	exp := tracing(t, nil)
	cctx, call := StartCall(ctx, "echo")
	_, step := StartStep(cctx, StepHooks, "tool_call")
	step.End()
	call.EndCall("echo", "call_7", "lbl", "it broke")
	_, plain := StartCall(ctx, "echo")
	plain.EndCall("echo", "", "", "")

	spans := exp.GetSpans()
	if len(spans) != 3 {
		t.Fatalf("got %d spans, want 3", len(spans))
	}
	hooks, failed, none := spans[0], spans[1], spans[2]
	if hooks.Name != "hooks tool_call" || hooks.Parent.SpanID() != failed.SpanContext.SpanID() {
		t.Errorf("step %q under %s, want hooks tool_call under the call %s", hooks.Name, hooks.Parent.SpanID(), failed.SpanContext.SpanID())
	}
	if want := []attribute.KeyValue{attribute.String("modkit.step", StepHooks)}; !reflect.DeepEqual(hooks.Attributes, want) {
		t.Errorf("step attributes %v, want %v", hooks.Attributes, want)
	}
	want := []attribute.KeyValue{attribute.String("gen_ai.tool.name", "echo"), attribute.String("modkit.call.id", "call_7"),
		attribute.String("modkit.call.label", "lbl"), attribute.String("error.type", "tool_error")}
	if failed.Name != "call echo" || !reflect.DeepEqual(failed.Attributes, want) || failed.Status.Code != codes.Error || failed.Status.Description != "it broke" {
		t.Errorf("failed call: %q %v %+v, want call echo %v and the error", failed.Name, failed.Attributes, failed.Status, want)
	}
	if want := []attribute.KeyValue{attribute.String("gen_ai.tool.name", "echo")}; !reflect.DeepEqual(none.Attributes, want) || none.Status.Code != codes.Unset {
		t.Errorf("call without a result: %v %+v, want %v, status unset", none.Attributes, none.Status, want)
	}
}

// tracing sets telemetry up, until the test ends, with an in-memory
// exporter and env for the environment, and returns the exporter.
func tracing(t *testing.T, env map[string]string) *tracetest.InMemoryExporter {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tel, err := Setup(context.Background(), &Options{Exporter: exp, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tel.Shutdown(context.Background()) })
	return exp
}

// TestCallTraceparentAlloc: a call's context carries its span's own
// traceparent header to the mod, without formatting it again.
func TestCallTraceparentAlloc(t *testing.T) {
	tracing(t, nil)
	ctx, span := StartCall(context.Background(), "echo")
	defer span.EndCall("echo", "", "", "")
	sc := trace.SpanContextFromContext(ctx)
	want := modtrace.SpanContext{TraceID: sc.TraceID(), SpanID: sc.SpanID(), Flags: byte(sc.TraceFlags())}.Traceparent()
	if tp, _, _, ok := ModCallTrace(ctx); !ok || tp != want {
		t.Errorf("got %q (ok %v), want %q", tp, ok, want)
	}
	if allocs := testing.AllocsPerRun(100, func() { ModCallTrace(ctx) }); allocs != 0 {
		t.Errorf("ModCallTrace of a call's context: got %v allocations, want 0", allocs)
	}
	// Under a step's span, the step's header.
	sctx, step := StartStep(ctx, StepHooks, "")
	defer step.End()
	ssc := trace.SpanContextFromContext(sctx)
	want = modtrace.SpanContext{TraceID: ssc.TraceID(), SpanID: ssc.SpanID(), Flags: byte(ssc.TraceFlags())}.Traceparent()
	if tp, _, _, ok := ModCallTrace(sctx); !ok || tp != want {
		t.Errorf("under a step: got %q (ok %v), want %q", tp, ok, want)
	}
}

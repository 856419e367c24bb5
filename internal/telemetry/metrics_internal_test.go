package telemetry

import (
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

func TestOperationSetAlloc(t *testing.T) {
	set := func(o []metric.RecordOption) attribute.Set {
		return metric.NewRecordConfig(o).Attributes()
	}
	got := set(operationSet("tools/call", "echo", "tool_error"))
	want := attribute.NewSet(attribute.String("mcp.method.name", "tools/call"), attribute.String("gen_ai.tool.name", "echo"), attribute.String("error.type", "tool_error"))
	if !got.Equals(&want) {
		t.Errorf("got %v, want %v", got.ToSlice(), want.ToSlice())
	}
	if got, want := set(operationSet("ping", "", "")), attribute.NewSet(attribute.String("mcp.method.name", "ping")); !got.Equals(&want) {
		t.Errorf("got %v, want %v", got.ToSlice(), want.ToSlice())
	}
	if n := testing.AllocsPerRun(100, func() { operationSet("tools/call", "echo", "tool_error") }); n != 0 {
		t.Errorf("a set made before: got %v allocations, want 0", n)
	}
}

func TestOperationSetsBounded(t *testing.T) {
	for i := range maxOpSets + 10 {
		operationSet("m", string(rune('a'+i%26))+string(rune(i)), "")
	}
	if n := nOpSets.Load(); n > maxOpSets {
		t.Errorf("got %d sets kept, want at most %d", n, maxOpSets)
	}
	got := metric.NewRecordConfig(operationSet("m", "past the bound", "")).Attributes()
	want := attribute.NewSet(attribute.String("mcp.method.name", "m"), attribute.String("gen_ai.tool.name", "past the bound"))
	if !got.Equals(&want) {
		t.Errorf("past the bound: got %v, want %v", got.ToSlice(), want.ToSlice())
	}
}

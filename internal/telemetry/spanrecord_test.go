package telemetry

import (
	"reflect"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// TestSpanRecordMethods checks that spanRecord has every exported method
// of ReadOnlySpan itself: one the SDK adds would reach the nil interface
// it embeds and panic in an exporter.
func TestSpanRecordMethods(t *testing.T) {
	var s sdktrace.ReadOnlySpan = &spanRecord{}
	iface := reflect.TypeFor[sdktrace.ReadOnlySpan]()
	v := reflect.ValueOf(s)
	for i := range iface.NumMethod() {
		m := iface.Method(i)
		if !m.IsExported() {
			continue
		}
		if m.Type.NumIn() != 0 {
			t.Errorf("ReadOnlySpan.%s takes arguments: call it here", m.Name)
			continue
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("spanRecord.%s panics (%v): spanRecord does not define it", m.Name, r)
				}
			}()
			v.MethodByName(m.Name).Call(nil)
		}()
	}
}

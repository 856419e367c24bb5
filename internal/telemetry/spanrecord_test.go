package telemetry

import (
	"reflect"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// TestSpanRecordMethods checks that spanRecord and callRecord have every
// exported method of ReadOnlySpan themselves: one the SDK adds would reach
// the nil interface they embed and panic in an exporter.
func TestSpanRecordMethods(t *testing.T) {
	for _, s := range []sdktrace.ReadOnlySpan{&spanRecord{}, &callRecord{}} {
		checkMethods(t, s)
	}
}

func checkMethods(t *testing.T, s sdktrace.ReadOnlySpan) {
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
					t.Errorf("%T.%s panics (%v): it does not define it", s, m.Name, r)
				}
			}()
			v.MethodByName(m.Name).Call(nil)
		}()
	}
}

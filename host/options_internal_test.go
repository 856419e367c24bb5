package host

import (
	"io"
	"testing"
	"time"
)

// A library prints nothing unless asked: progress is discarded by default.
func TestOptionsDefaults(t *testing.T) {
	t.Parallel()
	o, err := (*Options)(nil).withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if o.Progress != io.Discard {
		t.Errorf("got Progress %v, want io.Discard", o.Progress)
	}
	for name, d := range map[string]time.Duration{
		"CallTimeout": o.CallTimeout, "HookTimeout": o.HookTimeout, "CommandTimeout": o.CommandTimeout,
		"ViewTimeout": o.ViewTimeout, "HandshakeTimeout": o.HandshakeTimeout, "ActivateTimeout": o.ActivateTimeout,
		"GracePeriod": o.GracePeriod,
	} {
		if d <= 0 {
			t.Errorf("got %s %v, want a default", name, d)
		}
	}
}

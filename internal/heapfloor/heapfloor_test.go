package heapfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 400},
		{1 << 20, 400},         // goal: the 4 MiB minimum × 4
		{4 << 20, 300},         // 4 × (1 + 3) = 16
		{5 << 20, 200},         // 220, rounded down
		{8 << 20, 100},         // twice the live heap is the floor
		{12 << 20, 100},        // Go's default beyond it
		{Floor, 100},           // no underflow
		{10 * Floor, 100},      //
		{(16 << 20) / 3, 200},  // 200.0...
		{(16 << 20) / 17, 400}, // 1600, bounded
	} {
		if got := percentFor(c.live); got != c.want {
			t.Errorf("percentFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// TestStart: after a collection, a small heap's percent is raised; $GOGC
// set leaves it alone.
func TestStart(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "100")
	Start()
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if p := gogc(); p != 100 {
		t.Fatalf("with GOGC set, the percent became %d", p)
	}
	t.Setenv("GOGC", "")
	Start()
	deadline := time.Now().Add(10 * time.Second)
	for gogc() != maxPercent {
		if time.Now().After(deadline) {
			t.Fatalf("percent %d after collections of a small heap, want %d", gogc(), maxPercent)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

package host_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

func BenchmarkBareUnary(b *testing.B) {
	h := load(b, nil, quickDir)
	rt, err := host.BareUnary(h.Host, "quick")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if err := rt(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func benchCall(b *testing.B, tool, input string, onActivity func(host.ActivityEvent)) {
	h := load(b, nil, quickDir)
	req := &host.CallRequest{Tool: tool, Input: json.RawMessage(input), Session: session(b), Label: "bench",
		OnActivity: onActivity}
	call(b, h, tool, input) // start the mod
	ctx := context.Background()
	for b.Loop() {
		res, err := h.Call(ctx, req)
		if err != nil || res.Status != host.StatusCompleted {
			b.Fatalf("got %v, %v", res, err)
		}
	}
}

func BenchmarkCallTrivial(b *testing.B) { benchCall(b, "quick_echo", `{"text":"hi"}`, nil) }

// quickDir is a mod without hooks: its calls take the host's bare call path.
const quickDir = "testdata/mods/quick"

// BenchmarkCallActivity10 sends ten updates: a title, eight log entries and
// a status.
func BenchmarkCallActivity10(b *testing.B) {
	benchCall(b, "quick_activity", `{"logs":8}`, func(host.ActivityEvent) {})
}

func p50(samples []time.Duration) time.Duration {
	slices.Sort(samples)
	return samples[len(samples)/2]
}

func sample(n int, f func() time.Duration) time.Duration {
	s := make([]time.Duration, n)
	for i := range s {
		s[i] = f()
	}
	return p50(s)
}

// BenchmarkLatencyGoals measures the p50 latencies behind the performance
// goals, interleaved so that machine noise hits all alike, and reports them
// as metrics: call/unary (goal at most 1.2), activity10/call (at most 1.3)
// and cancel-p50-ms (at most 1). Run it with -benchtime 1x: each iteration
// is a whole measurement.
func BenchmarkLatencyGoals(b *testing.B) {
	for range b.N {
		latencyGoals(b)
	}
}

func latencyGoals(t *testing.B) {
	h := load(t, nil, quickDir)
	rt, err := host.BareUnary(h.Host, "quick")
	if err != nil {
		t.Fatal(err)
	}
	bs, err := host.BareStream(h.Host, "quick_echo", []byte(`{"text":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	trivial := &host.CallRequest{Tool: "quick_echo", Input: json.RawMessage(`{"text":"hi"}`), Session: session(t), Label: "perf"}
	activity := &host.CallRequest{Tool: "quick_activity", Input: json.RawMessage(`{"logs":8}`), Session: session(t), Label: "perf",
		OnActivity: func(host.ActivityEvent) {}}
	timeCall := func(req *host.CallRequest) func() time.Duration {
		return func() time.Duration {
			start := time.Now()
			res, err := h.Call(ctx, req)
			if err != nil || res.Status != host.StatusCompleted {
				t.Fatalf("got %+v, %v", res, err)
			}
			return time.Since(start)
		}
	}
	timeUnary := func() time.Duration {
		start := time.Now()
		if err := rt(ctx); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	timeStream := func() time.Duration {
		start := time.Now()
		if err := bs(ctx); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	const n = 2000
	// Warm up, then interleave rounds so that machine noise hits all alike.
	sample(200, timeUnary)
	sample(200, timeCall(trivial))
	sample(200, timeCall(activity))
	var bare, stream, triv, act []time.Duration
	for range 4 {
		bare = append(bare, sample(n/4, timeUnary))
		stream = append(stream, sample(n/4, timeStream))
		triv = append(triv, sample(n/4, timeCall(trivial)))
		act = append(act, sample(n/4, timeCall(activity)))
	}
	bareP50, streamP50, trivP50, actP50 := p50(bare), p50(stream), p50(triv), p50(act)

	// crashy's hook runs before every tool call: measure cancellation on a
	// host of its own.
	hc := load(t, nil, crashyDir)
	dir := t.TempDir()
	var lags []time.Duration
	for i := range 100 {
		marker := filepath.Join(dir, strconv.Itoa(i))
		cctx, cancel := context.WithCancel(ctx)
		var at time.Time
		res, err := hc.Call(cctx, &host.CallRequest{
			Tool: "crashy_wait", Input: json.RawMessage(`{"marker":` + strconv.Quote(marker) + `}`), Session: inWorkspace(dir),
			OnActivity: func(e host.ActivityEvent) {
				if e.Update.Kind == sdk.ActivityStatus {
					at = time.Now()
					cancel()
				}
			},
		})
		if err != nil || res.Status != host.StatusCancelled {
			t.Fatalf("got %+v, %v", res, err)
		}
		ns, err := strconv.ParseInt(waitForFile(t, marker), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		lags = append(lags, time.Unix(0, ns).Sub(at))
		os.Remove(marker)
	}
	cancelP50 := p50(lags)

	t.ReportMetric(float64(trivP50)/float64(bareP50), "call/unary")
	t.ReportMetric(float64(streamP50)/float64(bareP50), "stream/unary")
	t.ReportMetric(float64(actP50)/float64(trivP50), "activity10/call")
	t.ReportMetric(float64(cancelP50)/float64(time.Millisecond), "cancel-p50-ms")
}

func BenchmarkBareOnce(b *testing.B) {
	h := load(b, nil, quickDir)
	rt, err := host.BareOnce(h.Host, "quick_echo", []byte(`{"text":"hi"}`))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if err := rt(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

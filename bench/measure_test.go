package main

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestPairAlternatesOrder(t *testing.T) {
	var order []string
	side := func(name string, v float64) func(int) ([]float64, error) {
		return func(int) ([]float64, error) {
			order = append(order, name)
			return []float64{v}, nil
		}
	}
	sa, sb, err := pair(3, side("a", 2), side("b", 1))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(order), 6; got != want {
		t.Fatalf("got %d runs, want %d", got, want)
	}
	want := []string{"a", "b", "b", "a", "a", "b"}
	for i := range want {
		if order[i] != want[i] {
			t.Errorf("run %d: got %s, want %s (order %v)", i, order[i], want[i], order)
		}
	}
	if got := roundRatios(sa, sb); len(got) != 3 || got[0] != 2 || got[1] != 2 {
		t.Errorf("ratios: got %v, want [2 2 2]: samples kept on the wrong side", got)
	}
}

func TestPairStopsAtError(t *testing.T) {
	boom := errors.New("boom")
	_, _, err := pair(2,
		func(int) ([]float64, error) { return []float64{1}, nil },
		func(int) ([]float64, error) { return nil, boom })
	if !errors.Is(err, boom) {
		t.Errorf("pair: got %v, want %v", err, boom)
	}
}

func TestLatencies(t *testing.T) {
	var n atomic.Int32
	xs, err := latencies(context.Background(), 2, 5, func(context.Context) error {
		n.Add(1)
		time.Sleep(time.Millisecond)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := n.Load(); got != 7 {
		t.Errorf("calls: got %d, want 7 (2 warmup + 5)", got)
	}
	if len(xs) != 5 {
		t.Fatalf("latencies: got %d, want 5", len(xs))
	}
	for _, x := range xs {
		if x < 1000 {
			t.Errorf("latency %v µs, want ≥ 1000 µs for a 1 ms sleep", x)
		}
	}
}

// TestThroughput checks the rate is the calls made over the time taken,
// bounded by what the workers can do, whatever the machine's load.
func TestThroughput(t *testing.T) {
	const d = 50 * time.Millisecond
	var n atomic.Int64
	start := time.Now()
	rate, err := throughput(context.Background(), 4, d, func(context.Context) error {
		time.Sleep(time.Millisecond)
		n.Add(1)
		return nil
	})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	calls := float64(n.Load())
	if calls == 0 {
		t.Fatal("throughput made no call")
	}
	// The rate counts every call over a time between d and took; 4
	// workers sleeping 1 ms each make at most 4,000 calls/s.
	if lo, hi := calls/took.Seconds(), min(calls/d.Seconds(), 4000); rate < lo || rate > hi {
		t.Errorf("throughput: got %.0f calls/s for %.0f calls in %v, want between %.0f and %.0f", rate, calls, took, lo, hi)
	}
	boom := errors.New("boom")
	if _, err := throughput(context.Background(), 2, time.Second, func(context.Context) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("throughput with a failing call: got %v, want %v", err, boom)
	}
}

// TestPairChunked: pairChunked warms both sides alike each round, then
// alternates them every chunk calls (a, b, b, a, ...; b first in odd
// rounds), and keeps each side's latencies on its side.
func TestPairChunked(t *testing.T) {
	var order []string
	side := func(name string, d time.Duration) call {
		return func(context.Context) error {
			order = append(order, name)
			time.Sleep(d)
			return nil
		}
	}
	cfg := config{rounds: 2, warmup: 1, calls: 2*chunk + 1}
	sa, sb, err := pairChunked(context.Background(), cfg, side("a", 2*time.Millisecond), side("b", 0))
	if err != nil {
		t.Fatal(err)
	}
	runs := func(name string, n int) []string {
		var out []string
		for range n {
			out = append(out, name)
		}
		return out
	}
	var want []string
	for _, first := range []string{"a", "b"} {
		second := map[string]string{"a": "b", "b": "a"}[first]
		want = append(want, first, second) // the warm-up
		want = append(want, runs(first, chunk)...)
		want = append(want, runs(second, chunk)...)
		want = append(want, runs(second, chunk)...)
		want = append(want, runs(first, chunk)...)
		want = append(want, first, second)
	}
	if len(order) != len(want) {
		t.Fatalf("got %d calls, want %d", len(order), len(want))
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("call %d: got %s, want %s", i, order[i], want[i])
		}
	}
	if len(sa.rounds) != 2 || len(sa.rounds[0]) != cfg.calls || len(sb.rounds[1]) != cfg.calls {
		t.Fatalf("got rounds of %d and %d calls, want 2 of %d each side", len(sa.rounds[0]), len(sb.rounds[1]), cfg.calls)
	}
	for _, r := range roundRatios(sa, sb) {
		if r <= 1 {
			t.Errorf("round ratio %v: want a's slower calls on a's side", r)
		}
	}
}

func TestPairChunkedStopsAtError(t *testing.T) {
	boom := errors.New("boom")
	cfg := config{rounds: 2, warmup: 0, calls: 3}
	_, _, err := pairChunked(context.Background(), cfg,
		func(context.Context) error { return nil },
		func(context.Context) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("pairChunked: got %v, want %v", err, boom)
	}
}

// TestChunkedCPUTurns: with more than two sides, chunkedCPU takes them in
// turn, each chunk's turn starting one side further on, each round's too.
func TestChunkedCPUTurns(t *testing.T) {
	var order []string
	side := func(name string) metered {
		return metered{fn: func(context.Context) error { order = append(order, name); return nil }}
	}
	cfg := config{rounds: 2, warmup: 1, calls: chunk + 1}
	s, err := chunkedCPU(context.Background(), cfg, side("a"), side("b"), side("c"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 3 {
		t.Fatalf("got %d samples, want 3", len(s))
	}
	var want []string
	for _, turn := range [][]string{{"a", "b", "c"}, {"b", "c", "a"}} {
		want = append(want, turn...) // the warm-up
		for _, name := range turn {
			want = append(want, strings.Split(strings.Repeat(name, chunk), "")...)
		}
		want = append(want, turn[1], turn[2], turn[0]) // the last chunk, one call each
	}
	if got := strings.Join(order, ""); got != strings.Join(want, "") {
		t.Errorf("calls: got %s, want %s", got, strings.Join(want, ""))
	}
	for i, x := range s {
		if len(x.rounds) != 2 || len(x.rounds[0]) != cfg.calls || len(x.rounds[1]) != cfg.calls {
			t.Errorf("side %d: got %d rounds, want 2 of %d calls", i, len(x.rounds), cfg.calls)
		}
	}
}

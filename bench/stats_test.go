package main

import (
	"math"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		p    float64
		want float64
	}{
		{"one value", []float64{7}, 50, 7},
		{"median of odd", []float64{3, 1, 2}, 50, 2},
		{"median of even takes the lower", []float64{4, 1, 3, 2}, 50, 2},
		{"p99 of 100", seq(100), 99, 99},
		{"p99 of 10 is the max", seq(10), 99, 10},
		{"p100", []float64{5, 9, 1}, 100, 9},
		{"tiny p is the min", []float64{5, 9, 1}, 0.1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentile(tt.xs, tt.p); got != tt.want {
				t.Errorf("percentile(%v, %v) = %v, want %v", tt.xs, tt.p, got, tt.want)
			}
		})
	}
}

func TestPercentileEmptyIsNaN(t *testing.T) {
	if got := percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("percentile(nil, 50) = %v, want NaN", got)
	}
}

func TestPercentileKeepsInput(t *testing.T) {
	xs := []float64{3, 1, 2}
	percentile(xs, 50)
	if xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {
		t.Errorf("percentile sorted its input: got %v, want [3 1 2]", xs)
	}
}

func TestRoundRatios(t *testing.T) {
	var a, b sample
	a.add([]float64{10, 12, 11})
	b.add([]float64{5, 5, 6})
	a.add([]float64{30})
	b.add([]float64{10})
	a.add([]float64{1}) // b has no third round: ignored
	got := roundRatios(&a, &b)
	want := []float64{11.0 / 5, 3}
	if len(got) != len(want) {
		t.Fatalf("roundRatios: got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("roundRatios[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if lo, hi := spread(got); lo != 2.2 || hi != 3 {
		t.Errorf("spread(%v) = %v, %v, want 2.2, 3", got, lo, hi)
	}
	if all := a.all(); len(all) != 5 {
		t.Errorf("all: got %d values, want 5", len(all))
	}
}

func TestMicros(t *testing.T) {
	got := micros([]time.Duration{1500 * time.Nanosecond, 2 * time.Millisecond})
	if got[0] != 1.5 || got[1] != 2000 {
		t.Errorf("micros: got %v, want [1.5 2000]", got)
	}
}

func seq(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(n - i)
	}
	return xs
}

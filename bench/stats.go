package main

import (
	"math"
	"slices"
	"time"
)

// percentile returns the p-th percentile (0 < p ≤ 100) of xs by the
// nearest-rank method, or NaN when xs is empty. xs is not modified.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	rank = min(max(rank, 1), len(s))
	return s[rank-1]
}

// median is the 50th percentile of xs.
func median(xs []float64) float64 { return percentile(xs, 50) }

// spread is the smallest and largest of xs.
func spread(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	return slices.Min(xs), slices.Max(xs)
}

// micros converts durations to microseconds.
func micros(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = float64(d) / float64(time.Microsecond)
	}
	return out
}

// sample is the measurements of one side of a comparison, kept per round.
type sample struct {
	rounds [][]float64
}

// add records one round's measurements.
func (s *sample) add(xs []float64) { s.rounds = append(s.rounds, xs) }

// all returns every measurement of every round.
func (s *sample) all() []float64 {
	var out []float64
	for _, r := range s.rounds {
		out = append(out, r...)
	}
	return out
}

// roundMedians returns each round's median.
func (s *sample) roundMedians() []float64 {
	out := make([]float64, len(s.rounds))
	for i, r := range s.rounds {
		out[i] = median(r)
	}
	return out
}

// roundRatios divides a's round medians by b's, round by round: the two
// sides were measured next to each other, so machine drift cancels.
func roundRatios(a, b *sample) []float64 {
	am, bm := a.roundMedians(), b.roundMedians()
	n := min(len(am), len(bm))
	out := make([]float64, n)
	for i := range n {
		out[i] = am[i] / bm[i]
	}
	return out
}

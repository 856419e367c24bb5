package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// call is one operation under measurement.
type call func(ctx context.Context) error

// latencies runs fn warmup times unmeasured, then n times, and returns each
// run's duration in microseconds.
func latencies(ctx context.Context, warmup, n int, fn call) ([]float64, error) {
	for range warmup {
		if err := fn(ctx); err != nil {
			return nil, err
		}
	}
	ds := make([]time.Duration, n)
	for i := range ds {
		start := time.Now()
		if err := fn(ctx); err != nil {
			return nil, err
		}
		ds[i] = time.Since(start)
	}
	return micros(ds), nil
}

// pair measures a and b round by round, alternating which goes first so
// that drift within a round does not favour either.
func pair(rounds int, a, b func(round int) ([]float64, error)) (sa, sb *sample, err error) {
	sa, sb = new(sample), new(sample)
	for r := range rounds {
		first, second := a, b
		fs, ss := sa, sb
		if r%2 == 1 {
			first, second, fs, ss = b, a, sb, sa
		}
		xs, err := first(r)
		if err != nil {
			return nil, nil, err
		}
		fs.add(xs)
		if xs, err = second(r); err != nil {
			return nil, nil, err
		}
		ss.add(xs)
	}
	return sa, sb, nil
}

// processWarmup is how many times a round's warm-up the row runs each side
// before its first round. A process is not at its steady state for its
// first thousand or so calls: it faults in the heap its first collection
// will reuse (some 700 page faults over the first 350 calls, none later)
// at up to twice the CPU per call, which a round's warm-up does not cover
// and round 0's first side paid alone. That holds for the mod process, the
// bare plugin and this process's host alike, whichever row calls them first.
const processWarmup = 20

// warmAll runs each side n times, in turn and unmeasured, so that no side
// meets a colder process than the others.
func warmAll(ctx context.Context, n int, sides ...call) error {
	for range n {
		for _, fn := range sides {
			if err := fn(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// pairCalls compares two calls by latency.
func pairCalls(ctx context.Context, cfg config, a, b call) (sa, sb *sample, err error) {
	return pair(cfg.rounds,
		func(int) ([]float64, error) { return latencies(ctx, cfg.warmup, cfg.calls, a) },
		func(int) ([]float64, error) { return latencies(ctx, cfg.warmup, cfg.calls, b) })
}

// chunk is how many calls in a row pairChunked makes of one side.
const chunk = 10

// pairChunked compares two calls by latency as pairCalls does, but within
// a round it alternates the sides every chunk calls (a, b, b, a, ...; b
// first in odd rounds), so that both meet the same load. A round of
// pairCalls measures one side for a second or more and then the other:
// on a busy machine the load changes between the two, and two identical
// sides read per-round ratios of 0.56–1.63.
func pairChunked(ctx context.Context, cfg config, a, b call) (sa, sb *sample, err error) {
	return pairChunkedCPU(ctx, cfg, metered{fn: a}, metered{fn: b})
}

// metered is a side of pairChunkedCPU: a call and, when cpu is set, where
// to keep the CPU per call of this process and of process pid (the mod),
// one value of each a round.
type metered struct {
	fn  call
	pid int
	cpu *[2][]float64
}

// pairChunkedCPU is pairChunked that also reads each metered side's CPU
// per call over its chunks of a round. Each chunk's CPU is read just
// around its calls, so reading /proc is not counted.
func pairChunkedCPU(ctx context.Context, cfg config, a, b metered) (sa, sb *sample, err error) {
	s, err := chunkedCPU(ctx, cfg, a, b)
	if err != nil {
		return nil, nil, err
	}
	return s[0], s[1], nil
}

// chunkedCPU is pairChunkedCPU for any number of sides: each round warms
// them in turn, then takes them in turn every chunk calls, the first side
// of each turn moving on by one at every chunk and every round, so that
// all meet the same load and none is always first.
func chunkedCPU(ctx context.Context, cfg config, sides ...metered) ([]*sample, error) {
	n := len(sides)
	samples := make([]*sample, n)
	for s := range samples {
		samples[s] = new(sample)
	}
	for r := range cfg.rounds {
		turn := make([]call, n)
		for j := range n {
			turn[j] = sides[(r+j)%n].fn
		}
		if err := warmAll(ctx, cfg.warmup, turn...); err != nil {
			return nil, err
		}
		xs := make([][]float64, n)
		self, peer := make([]time.Duration, n), make([]time.Duration, n)
		for i := 0; i*chunk < cfg.calls; i++ {
			calls := min(chunk, cfg.calls-i*chunk)
			for j := range n {
				s := (r + i + j) % n
				side := sides[s]
				var p0 time.Duration
				if side.cpu != nil {
					var err error
					if p0, err = procCPU(side.pid); err != nil {
						return nil, err
					}
				}
				s0 := selfCPU()
				ys, err := latencies(ctx, 0, calls, side.fn)
				if err != nil {
					return nil, err
				}
				self[s] += selfCPU() - s0
				if side.cpu != nil {
					p1, err := procCPU(side.pid)
					if err != nil {
						return nil, err
					}
					peer[s] += p1 - p0
				}
				xs[s] = append(xs[s], ys...)
			}
		}
		for s, side := range sides {
			samples[s].add(xs[s])
			if side.cpu != nil {
				us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / float64(cfg.calls) }
				side.cpu[0], side.cpu[1] = append(side.cpu[0], us(self[s])), append(side.cpu[1], us(peer[s]))
			}
		}
	}
	return samples, nil
}

// throughput runs fn from workers goroutines for d and returns completed
// calls per second.
func throughput(ctx context.Context, workers int, d time.Duration, fn call) (float64, error) {
	var (
		done    atomic.Int64
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	deadline := start.Add(d)
	for range workers {
		wg.Go(func() {
			for time.Now().Before(deadline) && ctx.Err() == nil {
				if err := fn(ctx); err != nil {
					errOnce.Do(func() { first = err; cancel() })
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	if first != nil {
		return 0, fmt.Errorf("%d concurrent callers: %w", workers, first)
	}
	return float64(done.Load()) / time.Since(start).Seconds(), nil
}

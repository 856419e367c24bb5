package ratelimit

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limiter decides whether the caller named key may make one more request
// now.
type Limiter interface {
	// Allow takes a token from key's bucket and reports whether there was
	// one; when there was none, retry is how long until there is.
	Allow(ctx context.Context, key string) (ok bool, retry time.Duration)
}

// ParseRate reads a rate as --rate-limit writes it: N/s, or a bare N,
// meaning N requests a second, N a positive integer.
func ParseRate(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSuffix(s, "/s"))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("rate %q: want N/s, N a positive whole number of requests a second", s)
	}
	return n, nil
}

// Memory is a Limiter in this process's memory.
type Memory struct {
	rate float64
	now  func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was counted
}

// NewMemory returns a limiter of rate requests a second per key, with a
// burst of rate. now is the clock; nil means time.Now.
func NewMemory(rate int, now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{rate: float64(rate), now: now, buckets: map[string]*bucket{}}
}

func (m *Memory) Allow(_ context.Context, key string) (bool, time.Duration) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	b, ok := m.buckets[key]
	if !ok {
		b = &bucket{tokens: m.rate, at: now}
		m.buckets[key] = b
	}
	if elapsed := now.Sub(b.at); elapsed > 0 {
		b.tokens = min(m.rate, b.tokens+elapsed.Seconds()*m.rate)
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration(math.Ceil((1 - b.tokens) / m.rate * float64(time.Second)))
}

// sweep forgets, at most once a minute, the buckets that are full again:
// a new one is the same. m.mu is held.
func (m *Memory) sweep(now time.Time) {
	if now.Sub(m.swept) < time.Minute {
		return
	}
	m.swept = now
	for k, b := range m.buckets {
		// A bucket refills from empty in a second: rate a second, up to rate.
		if now.Sub(b.at) >= time.Second {
			delete(m.buckets, k)
		}
	}
}

// RetryAfter is the Retry-After header's value for retry: whole seconds,
// at least 1.
func RetryAfter(retry time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(retry.Seconds()))))
}

package mcpbridge

import (
	"sync"
	"time"
)

// storeHealth remembers since when the task store has not answered the
// readiness checks.
type storeHealth struct {
	mu        sync.Mutex
	downSince time.Time // zero while the store answers
}

// note records the outcome of a check at now, and returns how long the
// store has not answered (0 when it answered).
func (s *storeHealth) note(err error, now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		s.downSince = time.Time{}
		return 0
	}
	if s.downSince.IsZero() {
		s.downSince = now
	}
	return now.Sub(s.downSince)
}

// StoreUnreachableFor returns how long the task store has failed every
// StoreReachable check since the last that succeeded: 0 when the last
// check succeeded. modhost's /readyz turns 503 when it exceeds
// --store-grace.
func (h *HTTPHandler) StoreUnreachableFor() time.Duration {
	h.tasks.health.mu.Lock()
	defer h.tasks.health.mu.Unlock()
	if h.tasks.health.downSince.IsZero() {
		return 0
	}
	return time.Since(h.tasks.health.downSince)
}

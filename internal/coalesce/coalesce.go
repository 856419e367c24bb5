package coalesce

import (
	"sync"
	"time"
)

// Coalescer delivers values to a function at most once per interval. Its
// methods may be called from any goroutine; deliveries never overlap.
type Coalescer[T any] struct {
	interval time.Duration
	deliver  func(T)

	mu      sync.Mutex // held while delivering, so deliveries keep their order
	last    time.Time  // when the last value was delivered
	held    T
	holding bool
	timer   *time.Timer
	closed  bool
}

// New returns a Coalescer that passes values to deliver at most once per
// interval.
func New[T any](interval time.Duration, deliver func(T)) *Coalescer[T] {
	return &Coalescer[T]{interval: interval, deliver: deliver}
}

// Push offers v: it is delivered now when the interval since the last
// delivery has passed, otherwise held, replacing any value held before, and
// delivered when the interval ends.
func (c *Coalescer[T]) Push(v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if !c.holding && time.Since(c.last) >= c.interval {
		c.last = time.Now()
		c.deliver(v)
		return
	}
	c.held, c.holding = v, true
	if c.timer == nil {
		c.timer = time.AfterFunc(c.interval-time.Since(c.last), c.fire)
	}
}

// fire delivers the held value when the interval ends.
func (c *Coalescer[T]) fire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timer = nil
	if c.closed || !c.holding {
		return
	}
	c.flushLocked()
}

// Flush delivers the held value, if any, at once, and stops the Coalescer:
// later values are dropped. Call it when the stream ends.
func (c *Coalescer[T]) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if c.holding {
		c.flushLocked()
	}
}

func (c *Coalescer[T]) flushLocked() {
	v := c.held
	var zero T
	c.held, c.holding = zero, false
	c.last = time.Now()
	c.deliver(v)
}

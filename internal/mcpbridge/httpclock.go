package mcpbridge

import (
	"sync"
	"sync/atomic"
	"time"
)

// sessionClock closes the HTTP sessions that stay idle: a session is busy
// while a request of it is served, which includes a client's GET event
// stream for as long as it is open, and idle otherwise; one idle for the
// timeout is closed.
type sessionClock struct {
	timeout time.Duration
	expire  func(id string)

	mu       sync.Mutex
	sessions map[string]*sessionUse // by session id
	stopped  bool
}

// sessionUse is what the clock knows of one session.
type sessionUse struct {
	busy  int         // requests being served
	timer *time.Timer // runs while busy is 0
}

func newSessionClock(timeout time.Duration, expire func(id string)) *sessionClock {
	return &sessionClock{timeout: timeout, expire: expire, sessions: map[string]*sessionUse{}}
}

// start starts the clock of a session just opened, idle.
func (c *sessionClock) start(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped || c.sessions[id] != nil {
		return
	}
	u := &sessionUse{}
	u.timer = time.AfterFunc(c.timeout, func() { c.fire(id, u) })
	c.sessions[id] = u
}

// hold marks the session busy until release is called. A session the clock
// does not know (unknown, or already expired) is left to the SDK to refuse.
func (c *sessionClock) hold(id string) (release func()) {
	h := &clockHold{}
	if !c.holdWith(h, id) {
		return func() {}
	}
	return h.release
}

// clockHold is one hold of a session, which a request can keep with its
// other state, in one allocation: holdWith takes it, release ends it.
type clockHold struct {
	c        *sessionClock
	u        *sessionUse // nil: no session held
	id       string
	released atomic.Bool
}

// holdWith is hold into h, which must be new: it reports whether the
// session is known (else h.release does nothing).
func (c *sessionClock) holdWith(h *clockHold, id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.sessions[id]
	if u == nil {
		return false
	}
	if u.busy == 0 {
		u.timer.Stop()
	}
	u.busy++
	h.c, h.u, h.id = c, u, id
	return true
}

// release ends the hold; only its first call counts.
func (h *clockHold) release() {
	if h.u == nil || !h.released.CompareAndSwap(false, true) {
		return
	}
	c, u := h.c, h.u
	c.mu.Lock()
	defer c.mu.Unlock()
	if u.busy--; u.busy == 0 && c.sessions[h.id] == u {
		u.timer.Reset(c.timeout)
	}
}

// forget drops a session the client ended.
func (c *sessionClock) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u := c.sessions[id]; u != nil {
		u.timer.Stop()
		delete(c.sessions, id)
	}
}

// fire expires a session whose timer ran out, unless it became busy since.
func (c *sessionClock) fire(id string, u *sessionUse) {
	c.mu.Lock()
	if c.sessions[id] != u || u.busy > 0 {
		c.mu.Unlock()
		return
	}
	delete(c.sessions, id)
	c.mu.Unlock()
	c.expire(id)
}

// stop stops every timer; sessions opened after are not timed.
func (c *sessionClock) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	for id, u := range c.sessions {
		u.timer.Stop()
		delete(c.sessions, id)
	}
}

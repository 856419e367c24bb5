package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/modkit/modkit/internal/mcpwire"
)

// inflight counts the posted requests being served, so that a drain can
// wait for them.
type inflight struct {
	mu       sync.Mutex
	n        int
	idle     chan struct{} // closed when n drops to 0 during a drain
	draining bool
}

// enter counts a request in, or reports false when the handler drains.
func (f *inflight) enter() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.draining {
		return false
	}
	f.n++
	return true
}

func (f *inflight) leave() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	if f.n == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
}

// postIn is a posted request counted in: it leaves once, when it ends or
// earlier, when its client is gone while its call goes on (the session
// direct path), as the SDK's POST ends then.
type postIn struct {
	posts *inflight
	left  atomic.Bool
}

func (p *postIn) leave() {
	if p.left.CompareAndSwap(false, true) {
		p.posts.leave()
	}
}

// drain refuses requests from now on and returns a channel closed once
// none is in flight.
func (f *inflight) drain() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.draining = true
	ch := make(chan struct{})
	if f.n == 0 {
		close(ch)
	} else {
		f.idle = ch
	}
	return ch
}

func (f *inflight) isDraining() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.draining
}

// Drain prepares the handler's replica to stop: Ready fails from now on,
// new requests get 503 Service Unavailable (a balancer sends them to
// another replica), and Drain waits, until ctx is done, for the requests
// in flight and the tasks running here to finish. A task still running
// then fails, saying its replica stopped, or, when its tool is annotated
// idempotent or read-only, is left for another replica to run again.
func (h *HTTPHandler) Drain(ctx context.Context) {
	idle := h.posts.drain()
	h.tasks.startDrain()
	select {
	case <-idle:
	case <-ctx.Done():
	}
	h.tasks.Drain(ctx)
}

// Ready reports whether the replica takes requests: it is not draining.
// A task store that does not answer does not make it unready: only task
// calls fail then (see StoreReachable and StoreUnreachableFor), and plain
// calls are served.
func (h *HTTPHandler) Ready(context.Context) error {
	if h.posts.isDraining() {
		return errors.New("draining: the replica is shutting down")
	}
	return nil
}

// StoreReachable reports whether the task store answers within 200 ms:
// soon enough for a balancer's health check, which gives up sooner than
// the store's own timeouts.
func (h *HTTPHandler) StoreReachable(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	err := h.tasks.store.Ping(ctx)
	h.tasks.health.note(err, time.Now())
	if err != nil {
		return fmt.Errorf("task store: %w", err)
	}
	return nil
}

// refuseDraining answers a request that came during a drain.
func refuseDraining(w http.ResponseWriter) {
	w.Header().Set("Retry-After", strconv.Itoa(1))
	w.Header().Set("Connection", "close")
	mcpwire.WriteError(w, http.StatusServiceUnavailable, nil, mcpwire.NewError(jsonrpc.CodeInternalError, "this replica is shutting down: send the request again"))
}

package serve

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/protocol"
)

// handlers tracks the handlers running in the mod process by the call id
// the host gave each request, for CallRunning, and ends the process when a
// handler outlives the grace period its request names after cancellation:
// the host has moved on, and a handler that ignores cancellation must not
// keep the mod busy forever. It sees every Mod RPC through gRPC
// interceptors, so input decoding counts as part of the call.
type handlers struct {
	log  *slog.Logger
	exit func(code int)

	mu      sync.Mutex
	running map[string]int // call id -> handlers running
	n       int            // handlers running
	idle    *sync.Cond     // signalled when n drops to 0
}

func newHandlers(log *slog.Logger, exit func(int)) *handlers {
	h := &handlers{log: log, exit: exit, running: map[string]int{}}
	h.idle = sync.NewCond(&h.mu)
	return h
}

// wait returns when no tracked handler runs. Serving has stopped, so their
// contexts are cancelled: each ends, or ends the process at its grace
// period.
func (h *handlers) wait() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for h.n > 0 {
		h.idle.Wait()
	}
}

// isRunning reports whether a handler for the call id is running.
func (h *handlers) isRunning(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.running[id] > 0
}

func (h *handlers) track(id string, delta int) {
	if id == "" {
		return
	}
	h.mu.Lock()
	if n := h.running[id] + delta; n > 0 {
		h.running[id] = n
	} else {
		delete(h.running, id)
	}
	if h.n += delta; h.n == 0 {
		h.idle.Broadcast()
	}
	h.mu.Unlock()
}

// begin notes that the handler of req started under ctx and returns the
// function that notes its end.
func (h *handlers) begin(ctx context.Context, method string, req any) (end func()) {
	r, ok := req.(interface {
		GetCallId() string
		GetGraceMillis() int64
	})
	if !ok {
		return func() {}
	}
	id, grace := r.GetCallId(), time.Duration(r.GetGraceMillis())*time.Millisecond
	h.track(id, 1)
	if grace <= 0 {
		return func() { h.track(id, -1) }
	}
	ended := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-ended:
		case <-t.C:
			h.expired(method, id, grace)
		}
	})
	return func() {
		close(ended)
		stop()
		h.track(id, -1)
	}
}

// expired ends the process: the handler of call id ran past its grace
// period after cancellation.
func (h *handlers) expired(method, id string, grace time.Duration) {
	h.log.Error("a cancelled handler ran past its grace period; the mod exits", "method", method, "call", id, "grace", grace.String())
	h.exit(protocol.ExitGraceExpired)
}

// beginLane is begin for a tool call on the call lane, which says when
// the call is cancelled: no watch on its context (context.AfterFunc was
// a fifth of the lane's own CPU per call in the mod).
func (h *handlers) beginLane(method string, req any) protocol.LaneTracked {
	r, ok := req.(interface {
		GetCallId() string
		GetGraceMillis() int64
	})
	if !ok {
		return nil
	}
	l := &laneHandler{h: h, method: method, id: r.GetCallId(), grace: time.Duration(r.GetGraceMillis()) * time.Millisecond}
	h.track(l.id, 1)
	return l
}

// laneHandler is a tool call's handler running, as beginLane tracks it.
type laneHandler struct {
	h          *handlers
	method, id string
	grace      time.Duration

	mu    sync.Mutex
	ended bool
	timer *time.Timer // the grace period, from the first cancellation
}

// Cancelled starts the grace period, unless it runs or the handler ended.
func (l *laneHandler) Cancelled() {
	if l.grace <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.ended && l.timer == nil {
		l.timer = time.AfterFunc(l.grace, l.expire)
	}
}

func (l *laneHandler) expire() {
	l.mu.Lock()
	ended := l.ended
	l.mu.Unlock()
	if !ended {
		l.h.expired(l.method, l.id, l.grace)
	}
}

// End notes the handler's end and stops its grace period.
func (l *laneHandler) End() {
	l.mu.Lock()
	l.ended = true
	if l.timer != nil {
		l.timer.Stop()
	}
	l.mu.Unlock()
	l.h.track(l.id, -1)
}

func (h *handlers) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	defer h.begin(ctx, info.FullMethod, req)()
	return handler(ctx, req)
}

func (h *handlers) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	w := &watchedStream{ServerStream: ss, h: h, method: info.FullMethod}
	defer w.end()
	return handler(srv, w)
}

// watchedStream begins tracking a streaming handler when it receives its
// request.
type watchedStream struct {
	grpc.ServerStream
	h      *handlers
	method string
	ended  func()
}

func (w *watchedStream) RecvMsg(m any) error {
	err := w.ServerStream.RecvMsg(m)
	if err == nil && w.ended == nil {
		w.ended = w.h.begin(w.Context(), w.method, m)
	}
	return err
}

func (w *watchedStream) end() {
	if w.ended != nil {
		w.ended()
	}
}

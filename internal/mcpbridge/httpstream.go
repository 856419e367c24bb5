package mcpbridge

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpwire"
)

// Resumable event streams of protocol revision 2025-11-25 (SEP-1699): the
// SDK's session handler, given an event store, starts each POST's event
// stream with a priming event (an id and empty data) and keeps every event
// of a session's streams, so that a client whose stream ended before its
// answer, because the server closed it or the connection broke, sends GET
// with Last-Event-ID and gets the rest. The priming event also carries a
// retry field, which the SDK does not write: it tells the client how long
// to wait before it reconnects to a stream the server closed.

// sseRetry is the reconnection delay a POST's event stream gives its client.
const sseRetry = time.Second

// primingEvent is how the SDK's priming event begins; it writes each event
// with one Write.
var primingEvent = []byte("event: prime\n")

// heldFlush is how long a POST's event stream may hold back the flush of
// its priming event, or of an answer, before it flushes anyway.
const heldFlush = 2 * time.Millisecond

// withSSERetry wraps the SDK's session handler: the priming event of each
// POST's event stream carries a retry field, and the stream is flushed
// fewer times (primingRetry).
func withSSERetry(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost {
			next.ServeHTTP(w, req)
			return
		}
		p := &primingRetry{ResponseWriter: w}
		defer p.end()
		next.ServeHTTP(p, req)
	})
}

// primingRetry adds a retry field to the priming event, the first event of
// a POST's stream when there is one. It also holds back the flushes the
// SDK asks for after the priming event and after an answer, for at most
// heldFlush: a call answered within that time reaches its client with
// the priming event in one write, and an answer, after which the SDK ends
// the stream, goes with the stream's end. Any other event flushes at once,
// with whatever was held.
type primingRetry struct {
	http.ResponseWriter
	mu    sync.Mutex
	seen  bool          // an event was written
	held  bool          // a flush is held back
	timer *time.Timer   // flushes what is held, when heldFlush passes
	ended bool          // the handler returned: the writer is not ours
	last  []byte        // the event of the last Write
	hold  time.Duration // how long a flush may be held; heldFlush if zero
}

func (p *primingRetry) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = b
	if p.seen || !bytes.HasPrefix(b, primingEvent) {
		p.seen = true
		return p.ResponseWriter.Write(b)
	}
	p.seen = true
	data := bytes.Index(b, []byte("data:"))
	if data < 0 || bytes.Contains(b[:data], []byte("\nretry:")) {
		return p.ResponseWriter.Write(b)
	}
	event := make([]byte, 0, len(b)+16)
	event = append(event, b[:data]...)
	event = append(event, "retry: "...)
	event = strconv.AppendInt(event, sseRetry.Milliseconds(), 10)
	event = append(event, '\n')
	event = append(event, b[data:]...)
	if _, err := p.ResponseWriter.Write(event); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Flush flushes the stream, or holds the flush back after the priming
// event or an answer.
func (p *primingRetry) Flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	if holdFlush(p.last) {
		p.held = true
		hold := p.hold
		if hold == 0 {
			hold = heldFlush
		}
		if p.timer == nil {
			p.timer = time.AfterFunc(hold, p.flushHeld)
		} else {
			p.timer.Reset(hold)
		}
		return
	}
	p.flush()
}

// holdFlush reports whether the flush after the event b may wait: b is
// the priming event or an answer.
func holdFlush(b []byte) bool {
	if bytes.HasPrefix(b, primingEvent) {
		return true
	}
	i := bytes.Index(b, []byte("data: "))
	if i < 0 {
		return false
	}
	_, ok := mcpwire.ResponseID(b[i+len("data: "):])
	return ok
}

// flushHeld flushes what is held back, unless the handler returned.
func (p *primingRetry) flushHeld() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held && !p.ended {
		p.flush()
	}
}

// flush flushes the stream; p.mu is held.
func (p *primingRetry) flush() {
	p.held = false
	if fl, ok := p.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// flushNow flushes the stream at once, with whatever is held.
func (p *primingRetry) flushNow() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ended {
		p.flush()
	}
}

// end is called when the handler returns: net/http flushes what is held,
// with the stream's end.
func (p *primingRetry) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended = true
	if p.timer != nil {
		p.timer.Stop()
	}
}

func (p *primingRetry) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// cancelledUnstored is the SDK's event store, which keeps no answer to a
// call the client cancelled: as cancelFilter keeps it off the live stream,
// this keeps it out of a resumed one.
type cancelledUnstored struct {
	mcp.EventStore
	inflight *sync.Map // of HTTPHandler
}

// Append stores the event data of a session's stream, or empty data in
// place of an answer to a cancelled call, so that the events' indexes stay
// as the SDK counts them; a resumed stream skips empty data.
func (s cancelledUnstored) Append(ctx context.Context, session, stream string, data []byte) error {
	if id, ok := mcpwire.ResponseID(data); ok {
		if c, ok := s.inflight.Load(cancelKey{session, id}); ok && c.(*atomic.Bool).Load() {
			data = nil
		}
	}
	return s.EventStore.Append(ctx, session, stream, data)
}

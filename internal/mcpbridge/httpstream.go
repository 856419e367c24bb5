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

// withSSERetry wraps the SDK's session handler: the priming event of each
// POST's event stream carries a retry field.
func withSSERetry(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPost {
			w = &primingRetry{ResponseWriter: w}
		}
		next.ServeHTTP(w, req)
	})
}

// primingRetry adds a retry field to the priming event, the first event of
// a POST's stream when there is one.
type primingRetry struct {
	http.ResponseWriter
	seen bool // an event was written
}

func (p *primingRetry) Write(b []byte) (int, error) {
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

// Flush and Unwrap let the SDK flush each event.
func (p *primingRetry) Flush() {
	if fl, ok := p.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
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

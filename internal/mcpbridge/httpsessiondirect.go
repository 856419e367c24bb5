package mcpbridge

import (
	"context"
	crand "crypto/rand"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpwire"
	"github.com/modkit/modkit/internal/telemetry"
)

// The session direct path: a plain tools/call in a session of streamable
// HTTP (revisions before 2026-07-28) is run by the HTTP handler itself,
// with the tool's handler NewServer gave the SDK, instead of being handed
// to the session's JSON-RPC connection, which decodes the body again,
// runs the tool in a goroutine of its own and hands the answer back. The
// answer is what the SDK would write, through the same writers: an event
// stream with the priming event (with its retry field), then the answer
// as an event, both kept in the event store under a stream of their own,
// so that a client whose stream broke resumes it with GET and
// Last-Event-ID, while the call runs (resume) or after (the SDK replays
// it). A cancelled call's answer is neither sent nor kept, as with the
// SDK (cancelFilter, cancelledUnstored). The stream starts when the call
// has run for heldFlush, as long as the SDK's stream holds back the flush
// of its priming event (primingRetry); a call answered before gets its
// answer alone as a JSON response, which the protocol allows for any
// request and every client must read, and which a client reads with less
// work than an event stream (the official TypeScript client: about a
// fifth less CPU per call). Such an answer has no stream: no event id
// went out, so there is nothing to resume, and nothing is kept in the
// event store. A call watches for its client's disconnect once its
// stream starts, when there is something to leave to be resumed: a client
// gone before is noticed then (within heldFlush), or when the call ends.
//
// Only calls that send nothing to the client but their answer are taken:
// the client declared no capability to be asked (elicitation, sampling,
// roots), sent no _meta (so no progress token), and has set no log level;
// the handler is told to send no logs even if one is set during the call
// (as if it were set just after). Anything else (a session the handler
// does not know, or one of another user, a header or member
// out of the plain, a call id in flight) is left to the SDK.
//
// One difference is left: the SDK refuses a call whose id is that of any
// request of the session in flight, and the direct path knows only the
// tools/call ones (HTTPHandler.inflight); a client that reuses the id of
// another request still running (ping, tasks/result) gets its call run.

// sessionCalls are the sessions whose calls the direct path may serve.
type sessionCalls struct {
	mu     sync.Mutex
	byID   map[string]*liveSession
	served atomic.Int64 // calls taken, for tests
}

// liveSession is a session as the direct path knows it.
type liveSession struct {
	ss *mcp.ServerSession
	// ctx is the parent of its direct calls' contexts: the values the SDK
	// gives the session's handlers (those of the request that opened it),
	// without its cancellation, and the mark that they send no logs
	// (noSessionLogsKey); it is cancelled with the handler's calls context,
	// which callContext then need not tie each call to (callsKey is nil).
	ctx context.Context
	// stopCtx releases ctx once the session ended and its calls did.
	stopCtx func()
	// userID is the user of the access token that opened the session, if
	// any: the SDK serves a session's requests to that user alone.
	userID string

	mu      sync.Mutex
	closing bool                   // no more calls are taken
	calls   sync.WaitGroup         // the calls running
	streams map[string]*callStream // the calls' streams, by stream id
}

// callStream is the event stream of one direct call.
type callStream struct {
	mu sync.Mutex
	// w is where its events go: the POST's response, or a GET's that
	// resumed it; nil when neither is there.
	w http.ResponseWriter
	// open: w takes the answer; it ends when the answer went to w, or when
	// w is released.
	open bool
	// done, for a GET that resumed the stream, is closed when open ends.
	done chan struct{}
	// lastIdx is the index of the last event written, as the SDK counts.
	lastIdx int
	// answered: the answer is kept (or dropped), nothing more comes.
	answered bool
	// prime: the stream begins with a priming event (2025-11-25 on).
	prime bool
	// started: the stream's headers (and priming event) are written, or
	// the answer went as JSON.
	started bool
	// id is the stream's id, made as the stream starts: then it is open in
	// the event store and in its session's streams. An answer that goes as
	// JSON has no stream: no event id went out, so none can be resumed.
	id string
}

// runningCall is a direct call in flight, under its cancelKey.
type runningCall struct {
	cancel context.CancelFunc
}

// directCall is what a direct call keeps while it runs, in one allocation:
// its entry in HTTPHandler.running and in HTTPHandler.inflight, the writers
// its answer goes through, its stream, its hold of the session's clock and
// the request its handler gets.
type directCall struct {
	h       *HTTPHandler
	ls      *liveSession
	session string
	req     *http.Request
	post    *postIn

	running   runningCall
	cancelled atomic.Bool
	sdk       sdkWriter
	filter    cancelFilter
	priming   primingRetry
	stream    callStream
	hold      clockHold
	call      mcp.CallToolRequest
	extra     mcp.RequestExtra

	// Under stream.mu: finished, the handler is done with the stream;
	// stopGone stops the watch of the POST's end, which the stream's start
	// sets up.
	finished bool
	stopGone func() bool
}

func newSessionCalls() *sessionCalls {
	return &sessionCalls{byID: map[string]*liveSession{}}
}

// add notes the session id just opened by the request req, whose context
// carries the handler's calls context (withCallsContext).
func (s *sessionCalls) add(id string, ss *mcp.ServerSession, req *http.Request) {
	base := context.WithValue(context.WithValue(context.WithoutCancel(req.Context()), callsKey{}, nil), noSessionLogsKey{}, true)
	ctx, cancel := context.WithCancel(base)
	ls := &liveSession{ss: ss, ctx: ctx, stopCtx: cancel, streams: map[string]*callStream{}}
	if calls, ok := req.Context().Value(callsKey{}).(context.Context); ok {
		stop := context.AfterFunc(calls, cancel)
		ls.stopCtx = func() { stop(); cancel() }
	}
	if ti := tokenInfo(req.Context()); ti != nil {
		ls.userID = ti.UserID
	}
	s.mu.Lock()
	s.byID[id] = ls
	s.mu.Unlock()
	go func() {
		ss.Wait()
		s.forget(id)
		// The calls still running stay tied to the calls context.
		ls.mu.Lock()
		ls.closing = true
		ls.mu.Unlock()
		ls.calls.Wait()
		ls.stopCtx()
	}()
}

// get returns the session id, if the request req may be served in it: the
// SDK refuses another user's.
func (s *sessionCalls) get(id string, req *http.Request) *liveSession {
	s.mu.Lock()
	ls := s.byID[id]
	s.mu.Unlock()
	if ls == nil || ls.userID != "" {
		if ls == nil {
			return nil
		}
		if ti := tokenInfo(req.Context()); ti == nil || ti.UserID != ls.userID {
			return nil
		}
	}
	return ls
}

// forget drops the session id.
func (s *sessionCalls) forget(id string) {
	s.mu.Lock()
	delete(s.byID, id)
	s.mu.Unlock()
}

// closing takes no more calls in the session id and waits for its calls
// to end, as the SDK's session does when it closes.
func (s *sessionCalls) closing(id string) {
	s.mu.Lock()
	ls := s.byID[id]
	s.mu.Unlock()
	if ls == nil {
		return
	}
	ls.mu.Lock()
	ls.closing = true
	ls.mu.Unlock()
	ls.calls.Wait()
}

// closingAll is closing of every session.
func (s *sessionCalls) closingAll() {
	s.mu.Lock()
	ids := make([]string, 0, len(s.byID))
	for id := range s.byID {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	for _, id := range ids {
		s.closing(id)
	}
}

// noSessionLogsKey marks the context of a direct session call: its
// handler sends no log notifications.
type noSessionLogsKey struct{}

// sessionLogsOff reports whether ctx is a direct session call's.
func sessionLogsOff(ctx context.Context) bool {
	return ctx.Value(noSessionLogsKey{}) != nil
}

// serveSessionDirect serves the tools/call m of the session named
// session, which checkBody read, and reports whether it did; when it did
// not, nothing was written.
func (h *HTTPHandler) serveSessionDirect(w http.ResponseWriter, req *http.Request, m *httpMessage, session string, post *postIn) bool {
	if h.direct == nil || h.live == nil ||
		len(req.Header[lastEventIDHeader]) > 0 || !acceptsBoth(req.Header.Values("Accept")) {
		return false
	}
	if ct := req.Header.Get("Content-Type"); ct != "application/json" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return false
		}
	}
	if !m.plain || m.JSONRPC != "2.0" || !plainID(m.ID) || !exactID(m.ID) {
		return false
	}
	p, ok := plainCallParams(m.params, nil)
	if !ok || p.Meta != nil {
		return false
	}
	handler, ok := h.direct.handler(p.Name)
	if !ok {
		return false
	}
	ls := h.live.get(session, req)
	if ls == nil {
		return false
	}
	ip := ls.ss.InitializeParams()
	if ip == nil || ip.ProtocolVersion >= multiRoundTrip || askableFrom(ip.Capabilities) != (askable{}) || levelSet(ls.ss) {
		return false
	}
	ls.mu.Lock()
	if ls.closing {
		ls.mu.Unlock()
		return false
	}
	ls.calls.Add(1)
	ls.mu.Unlock()
	defer ls.calls.Done()
	h.live.served.Add(1)

	// The call id is claimed, unless a direct call has it (then it is
	// answered as the SDK answers a duplicate) or a call the SDK runs.
	id := mcpwire.IDKey(m.ID)
	var key any = cancelKey{session, id} // boxed once for both maps
	ctx, cancel := context.WithCancel(ls.ctx)
	defer cancel()
	dc := &directCall{h: h, ls: ls, session: session, req: req, post: post, running: runningCall{cancel: cancel}}
	if _, loaded := h.running.LoadOrStore(key, &dc.running); loaded {
		duplicateID(&sdkWriter{ResponseWriter: w}, m.ID)
		return true
	}
	cancelled := &dc.cancelled
	if _, loaded := h.inflight.LoadOrStore(key, cancelled); loaded {
		h.running.Delete(key)
		return false
	}
	defer func() {
		h.running.Delete(key)
		h.inflight.Delete(key)
	}()
	h.clock.holdWith(&dc.hold, session)
	defer dc.hold.release()

	dc.sdk.ResponseWriter = w
	dc.filter = cancelFilter{ResponseWriter: &dc.sdk, id: id, cancelled: cancelled}
	pw := &dc.priming
	pw.ResponseWriter = &dc.filter
	defer pw.end()
	version := req.Header.Get(protocolHeader)
	if version == "" {
		version = "2025-03-26"
	}
	st := &dc.stream
	st.w, st.open, st.lastIdx, st.prime = pw, true, -1, version >= "2025-11-25"
	defer dc.finish()

	// The event stream starts when the call has run for jsonHold: until
	// then it would have nothing to send but the priming event, whose flush
	// the SDK's stream holds back as long (primingRetry).
	if hold := h.jsonHold; hold < 0 {
		dc.startStream()
	} else {
		if hold == 0 {
			hold = heldFlush
		}
		t := time.AfterFunc(hold, dc.startStream)
		defer t.Stop()
	}

	dc.call = mcp.CallToolRequest{Session: ls.ss, Params: p, Extra: &dc.extra}
	dc.extra = mcp.RequestExtra{TokenInfo: tokenInfo(req.Context()), Header: req.Header}
	res, err := observeCall(ctx, handler, &dc.call)
	cancel() // as callContext's, when the handler returns
	data := resultShape{}.response(m.ID, res, err)
	data = data[:len(data)-1] // no newline
	dc.answer(ctx, data, cancelled.Load())
	return true
}

// startStream starts the call's event stream, unless it started or the
// call is done.
func (dc *directCall) startStream() {
	st := &dc.stream
	st.mu.Lock()
	defer st.mu.Unlock()
	if !dc.finished {
		dc.startLocked()
	}
}

// startLocked starts the call's event stream, unless it started, with
// st.mu held: the stream is opened in the event store and in its
// session's streams, where a GET can resume it, and the headers of an event
// stream and the priming event are written and flushed. From then on, the
// POST's end (the client gone before the answer) leaves the stream to be
// resumed, and the request ends for Drain and the session's clock, as the
// SDK's.
func (dc *directCall) startLocked() {
	st := &dc.stream
	if st.started {
		return
	}
	st.started = true
	pw, _ := st.w.(*primingRetry)
	if pw == nil { // released: the client is gone
		return
	}
	h, ctx := dc.h, dc.req.Context()
	st.id = crand.Text()
	if err := h.events.Open(ctx, dc.session, st.id); err != nil && h.opts.Logger != nil {
		h.opts.Logger.Warn(fmt.Sprintf("Opening an event stream: %v", err))
	}
	dc.ls.mu.Lock()
	dc.ls.streams[st.id] = st
	dc.ls.mu.Unlock()
	dc.stopGone = context.AfterFunc(ctx, dc.clientGone)
	if st.prime {
		if err := h.events.Append(ctx, dc.session, st.id, nil); err != nil && h.opts.Logger != nil {
			h.opts.Logger.Warn(fmt.Sprintf("Storing priming event: %v", err))
		}
	}
	hdr := pw.Header()
	hdr["Cache-Control"] = noCacheValue
	hdr["Content-Type"] = eventStreamValue
	hdr["Connection"] = keepAliveValue
	if st.prime {
		st.lastIdx++
		writeSSE(pw, "prime", eventID(st.id, st.lastIdx), nil)
		pw.flushNow()
	}
}

// lastEventIDHeader is Last-Event-ID as net/http keeps it (its canonical
// form), so that no lookup makes the key anew.
const lastEventIDHeader = "Last-Event-Id"

// Header values the direct path sets, by key as written (as
// mcpwire.WriteJSON does): net/http only reads them.
var (
	noCacheValue     = []string{"no-cache, no-transform"}
	eventStreamValue = []string{"text/event-stream"}
	keepAliveValue   = []string{"keep-alive"}
	jsonValue        = []string{"application/json"}
)

// clientGone runs when the POST ends before its answer: the stream waits
// to be resumed, and the request no longer counts.
func (dc *directCall) clientGone() {
	dc.stream.release(&dc.priming)
	dc.post.leave()
	dc.hold.release()
}

// finish ends the handler's part in the stream: it starts no more, its
// POST's end is no longer watched, and it leaves its session's streams.
func (dc *directCall) finish() {
	st := &dc.stream
	st.mu.Lock()
	dc.finished = true
	stop, id := dc.stopGone, st.id
	st.mu.Unlock()
	if stop != nil {
		stop()
	}
	if id != "" {
		dc.ls.mu.Lock()
		delete(dc.ls.streams, id)
		dc.ls.mu.Unlock()
	}
}

// observeCall calls handler as the SDK's receiving middleware would: a
// span and a duration for the call when telemetry is on.
func observeCall(ctx context.Context, handler mcp.ToolHandler, call *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !telemetry.Tracing() && !telemetry.Metering() {
		return handler(ctx, call)
	}
	res, err := observe(func(ctx context.Context, _ string, r mcp.Request) (mcp.Result, error) {
		return handler(ctx, r.(*mcp.CallToolRequest))
	})(ctx, "tools/call", call)
	r, _ := res.(*mcp.CallToolResult)
	return r, err
}

// answer keeps the answer data in the event store and writes it to the
// stream, if a response is there to take it, as the SDK's session does. A
// stream not started yet is not: the answer goes as a JSON response, which
// a client must take as it takes an event stream, and which it reads with
// less work; a cancelled call's stream starts and ends without it.
func (dc *directCall) answer(ctx context.Context, data []byte, cancelled bool) {
	st := &dc.stream
	st.mu.Lock()
	defer st.mu.Unlock()
	st.answered = true
	if !st.started && !cancelled && st.open {
		st.started = true
		hdr := st.w.Header()
		hdr["Cache-Control"] = noCacheValue
		hdr["Content-Type"] = jsonValue
		st.w.Write(data)
		st.open = false
		return
	}
	dc.startLocked()
	if st.id != "" {
		_ = dc.h.events.Append(ctx, dc.session, st.id, data) // as the SDK, delivered if written
	}
	if !st.open {
		return
	}
	st.lastIdx++
	writeSSE(st.w, "message", eventID(st.id, st.lastIdx), data)
	st.closeOpen()
}

// closeOpen ends st.open, with st.mu held.
func (st *callStream) closeOpen() {
	st.open = false
	if st.done != nil {
		close(st.done)
		st.done = nil
	}
}

// release detaches the response w from the stream, if it is still there.
func (st *callStream) release(w http.ResponseWriter) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.w == w {
		st.w = nil
		st.closeOpen()
	}
}

// resumeDirect serves a GET that resumes the stream of a direct call still
// running in the session named session, as the SDK resumes one of its
// own, and reports whether it did; any other GET is the SDK's.
func (h *HTTPHandler) resumeDirect(w http.ResponseWriter, req *http.Request, session string) bool {
	if h.live == nil || len(req.Header[lastEventIDHeader]) == 0 {
		return false
	}
	if _, streamOK := streamableAccepts(req.Header.Values("Accept")); !streamOK {
		return false
	}
	streamID, lastIdx, ok := parseEventID(req.Header.Get(lastEventIDHeader))
	if !ok {
		return false
	}
	ls := h.live.get(session, req)
	if ls == nil {
		return false
	}
	ls.mu.Lock()
	st := ls.streams[streamID]
	ls.mu.Unlock()
	if st == nil {
		return false // done: the SDK replays it from the event store
	}
	done, ok := st.acquire(req.Context(), w, h.events, session, streamID, lastIdx)
	if !ok {
		return true
	}
	defer st.release(w)
	select {
	case <-req.Context().Done():
	case <-done:
	}
	return true
}

// acquire replays the events of the stream after lastIdx to w and, unless
// the stream is answered, makes w its response until done is closed.
func (st *callStream) acquire(ctx context.Context, w http.ResponseWriter, events mcp.EventStore, session, streamID string, lastIdx int) (done chan struct{}, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.w != nil {
		http.Error(w, "stream ID conflicts with ongoing stream", http.StatusConflict)
		return nil, false
	}
	var replay [][]byte
	for data, err := range events.After(ctx, session, streamID, lastIdx) {
		if err != nil {
			http.Error(w, "failed to replay events", http.StatusBadRequest)
			return nil, false
		}
		if len(data) > 0 {
			replay = append(replay, data)
		}
	}
	hdr := w.Header()
	hdr.Set("Cache-Control", "no-cache, no-transform")
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Connection", "keep-alive")
	for _, data := range replay {
		lastIdx++
		writeSSE(w, "message", eventID(streamID, lastIdx), data)
	}
	if st.answered {
		return nil, false
	}
	st.w, st.open, st.done, st.lastIdx = w, true, make(chan struct{}), lastIdx
	return st.done, true
}

// writeSSE writes one server-sent event and flushes it, as the SDK writes
// each.
func writeSSE(w http.ResponseWriter, name, id string, data []byte) {
	b := make([]byte, 0, len(name)+len(id)+len(data)+32)
	b = append(b, "event: "...)
	b = append(b, name...)
	b = append(b, "\nid: "...)
	b = append(b, id...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	b = append(b, "\n\n"...)
	w.Write(b)
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// eventID is the SDK's id of event idx of a stream.
func eventID(streamID string, idx int) string {
	return streamID + "_" + strconv.Itoa(idx)
}

// parseEventID reads an event id as the SDK does.
func parseEventID(id string) (streamID string, idx int, ok bool) {
	parts := strings.Split(id, "_")
	if len(parts) != 2 {
		return "", 0, false
	}
	idx, err := strconv.Atoi(parts[1])
	if err != nil || idx < 0 {
		return "", 0, false
	}
	return parts[0], idx, true
}

// streamableAccepts reads Accept as the SDK does.
func streamableAccepts(values []string) (jsonOK, streamOK bool) {
	for _, value := range values {
		for raw := range strings.SplitSeq(value, ",") {
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK, streamOK
}

// duplicateID answers a call whose id is in flight in its session, as the
// SDK does.
func duplicateID(w http.ResponseWriter, rawID json.RawMessage) {
	var id jsonrpc.ID
	if rawID[0] == '"' {
		var s string
		json.Unmarshal(rawID, &s)
		id, _ = jsonrpc.MakeID(s)
	} else {
		n, _ := strconv.ParseInt(string(rawID), 10, 64)
		id, _ = jsonrpc.MakeID(float64(n))
	}
	data, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{
		Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("duplicate in-flight request ID %v", id.Raw())}})
	hdr := w.Header()
	hdr.Set("Cache-Control", "no-cache, no-transform")
	hdr.Set("Connection", "keep-alive")
	hdr.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(data)
}

// exactID reports whether a request id survives the SDK's decoding as
// written: a string, or an integer a float64 holds exactly.
func exactID(raw json.RawMessage) bool {
	if raw[0] == '"' {
		return true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n > -1<<53 && n < 1<<53 && (n != 0 || raw[0] != '-')
}

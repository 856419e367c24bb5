package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// LaneServer serves the tool calls, and their steps (hooks, input checks,
// approval rules), that arrive on a mod process's call lane: each runs on a
// goroutine of its own, under a context that a cancel
// frame, or the lane closing, cancels.
type LaneServer struct {
	// Impl runs the calls.
	Impl modapi.Mod
	// MaxMessageBytes is the largest frame payload either side sends, the
	// host's limit.
	MaxMessageBytes int
	// Begin, when set, notes that the handler of req (a request with a
	// call id and a grace period) starts under ctx and returns what notes
	// its end: the mod's tracking of running handlers, as its gRPC
	// interceptors do for the method named.
	Begin func(ctx context.Context, method string, req any) (end func())
	// Track, when set, is Begin for tool calls and the hooks that travel
	// with them, without a watch on the call's context: the lane, which
	// alone cancels that context, tells the LaneTracked returned for req
	// when the call is cancelled while its handler (or hook) runs. Track
	// returning nil notes nothing.
	Track func(method string, req any) LaneTracked
	// Trace, when set, returns ctx under the trace context a traced call
	// carries. traceparent may point into the call's frame: the context
	// returned must not keep it.
	Trace func(ctx context.Context, traceparent, tracestate, baggage string) context.Context
	// Spans, when set, appends the spans the mod finished to dst, an
	// encoded SpanBatch, and returns it; dst as it was when there are
	// none: they go back with each outcome. dst is the server's, reused
	// once the frame carrying them is written.
	Spans func(dst []byte) []byte

	w frameWriter

	// idle hands a call to a handler goroutine that has finished one and
	// waits for the next: its stack has grown already. stop ends them.
	idle  chan laneJob
	idleN atomic.Int32 // goroutines waiting on idle
	stop  chan struct{}

	mu      sync.Mutex
	running map[uint64]laneRun
	closed  bool
	conn    net.Conn
}

// Serve serves calls from conn until the lane closes, then cancels the
// calls still running. It returns nil when the host closed the lane (or
// Close did), else why it stopped reading.
func (s *LaneServer) Serve(conn net.Conn) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		conn.Close()
		return nil
	}
	s.conn, s.running = conn, map[uint64]laneRun{}
	s.w = frameWriter{w: conn, limit: s.MaxMessageBytes}
	s.idle, s.stop = make(chan laneJob), make(chan struct{})
	s.mu.Unlock()
	defer s.Close()
	fr := newFrameReader(conn, s.MaxMessageBytes)
	fr.pool = ^uint64(0) // every kind
	for {
		id, kind, payload, err := fr.next()
		switch {
		case err == nil:
		case isFrameTooLarge(err) && (kind == kindCall || kind == kindStep):
			s.failCall(id, pb.LaneFailureKind_LANE_FAILURE_KIND_REQUEST_TOO_LARGE, "the host's "+err.Error())
			continue
		case err == io.EOF || s.isClosed():
			return nil
		case err != nil:
			return fmt.Errorf("call lane: %w", err)
		}
		switch kind {
		case kindCall, kindStep:
			ctx, cancel := context.WithCancel(context.Background())
			s.mu.Lock()
			_, dup := s.running[id]
			s.running[id] = laneRun{cancel: cancel}
			s.mu.Unlock()
			if dup {
				cancel()
				return fmt.Errorf("call lane: the host started call %d twice", id)
			}
			s.start(laneJob{ctx, id, kind, payload, fr.buf})
		case kindCancel:
			s.cancel(id)
		default:
			return fmt.Errorf("call lane: the host sent a frame (%s) only the mod sends", kind)
		}
	}
}

// LaneTracked is a handler running, as LaneServer.Track notes it.
type LaneTracked interface {
	// Cancelled notes that the call was cancelled (by the host, or the
	// lane closing) while its handler runs. It may come more than once,
	// and after End; it may come under the lane's lock, so it must not
	// block or call the lane.
	Cancelled()
	// End notes that the handler has ended.
	End()
}

// laneRun is a call or step running on the lane.
type laneRun struct {
	cancel    context.CancelFunc
	cancelled bool        // by the host, or a hook's timeout
	tracked   LaneTracked // nil until Track noted the handler
}

// laneJob is a call for a handler goroutine to run.
type laneJob struct {
	ctx     context.Context
	id      uint64
	kind    frameKind // kindCall or kindStep
	payload []byte
	buf     *[]byte // payload's buffer from framePool, or nil
}

// maxIdleHandlers bounds the handler goroutines kept waiting for a call.
// It is above the calls a busy host keeps on a lane (8 in the bench's
// concurrent row): with fewer, handlers that find enough others waiting
// end, and the goroutines started in their place grow their stacks again
// on every call (copystack was 7% of the mod's CPU with 4).
const maxIdleHandlers = 16

// start runs j on a waiting handler goroutine, or on a new one.
func (s *LaneServer) start(j laneJob) {
	select {
	case s.idle <- j:
	default:
		go s.handle(j)
	}
}

// handle runs j, then the calls handed to it while no more than
// maxIdleHandlers others wait, until the lane closes.
func (s *LaneServer) handle(j laneJob) {
	for {
		if j.kind == kindStep {
			s.runStep(j.ctx, j.id, j.payload)
		} else {
			s.run(j.ctx, j.id, j.payload)
		}
		if j.buf != nil {
			// Decoding copied what the call keeps.
			*j.buf = j.payload[:0]
			putFrame(j.buf)
		}
		j = laneJob{} // let the payload go while waiting
		if s.idleN.Add(1) > maxIdleHandlers {
			s.idleN.Add(-1)
			return
		}
		select {
		case j = <-s.idle:
			s.idleN.Add(-1)
		case <-s.stop:
			s.idleN.Add(-1)
			return
		}
	}
}

// Close closes the lane and cancels the calls running.
func (s *LaneServer) Close() {
	s.mu.Lock()
	if !s.closed && s.stop != nil {
		close(s.stop)
	}
	s.closed = true
	for _, r := range s.running {
		if r.tracked != nil { // told first: the handler may end once cancelled
			r.tracked.Cancelled()
		}
		r.cancel()
	}
	conn := s.conn
	s.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
}

func (s *LaneServer) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// failCall ends call id with a failure frame.
func (s *LaneServer) failCall(id uint64, kind pb.LaneFailureKind, msg string) {
	_ = s.w.send(id, kindFailure, &pb.LaneFailure{Kind: kind, Message: msg})
}

// cancel cancels call id, unless it has ended.
func (s *LaneServer) cancel(id uint64) {
	s.mu.Lock()
	r, ok := s.running[id]
	if ok {
		r.cancelled = true
		s.running[id] = r
	}
	s.mu.Unlock()
	if ok {
		if r.tracked != nil { // told first: the handler may end once cancelled
			r.tracked.Cancelled()
		}
		r.cancel()
	}
}

// ended forgets call id, which has ended.
func (s *LaneServer) ended(id uint64) {
	s.mu.Lock()
	if r, ok := s.running[id]; ok {
		r.cancel()
		delete(s.running, id)
	}
	s.mu.Unlock()
}

// track notes with Track that the handler of call id, for req, starts,
// and tells what Track returns when the call was cancelled before.
func (s *LaneServer) track(id uint64, method string, req any) LaneTracked {
	t := s.Track(method, req)
	if t == nil {
		return nil
	}
	s.mu.Lock()
	r, ok := s.running[id]
	fire := !ok || r.cancelled || s.closed
	if ok {
		r.tracked = t
		s.running[id] = r
	}
	s.mu.Unlock()
	if fire {
		t.Cancelled()
	}
	return t
}

// laneCallRun is what run allocates for a call, at once: the call frame's
// messages, the call as Impl takes it, and the outcome's messages. It
// watches the call's activity, posting each update.
type laneCallRun struct {
	s       *LaneServer
	id      uint64
	call    pb.LaneCall
	req     pb.CallToolRequest
	session pb.Session
	r       modapi.CallRequest
	out     pb.LaneOutcome
	outcome pb.Outcome
}

// MakeRoom implements modapi.ActivityWatcher: updates are posted one by one.
func (m *laneCallRun) MakeRoom(int) {}

// Activity implements modapi.ActivityWatcher. A failed post means the
// lane is gone; the handler sees its context cancelled.
func (m *laneCallRun) Activity(u sdk.ActivityUpdate) { _ = m.s.w.postActivity(m.id, u) }

// run runs call id, whose frame's payload is payload, and sends its end:
// nothing when it was cancelled, since the host has moved on.
func (s *LaneServer) run(ctx context.Context, id uint64, payload []byte) {
	defer s.ended(id)
	// The call frame's messages, the call as Impl takes it, and the
	// outcome's messages, in one allocation: the call's request and
	// session are decoded into messages set beforehand, which the call
	// reads as it would messages absent from the frame when they are.
	m := &laneCallRun{s: s, id: id}
	call := &m.call
	call.Request, m.req.Session = &m.req, &m.session
	// The traceparent is read where the frame holds it, valid while the
	// call runs (the payload is the call's): not decoded into a string.
	tp := ""
	if rest, v, ok := moveField(payload, callTraceparent); ok {
		payload, tp = rest, v
	}
	if err := (proto.UnmarshalOptions{Merge: true}).Unmarshal(payload, call); err != nil {
		s.failCall(id, pb.LaneFailureKind_LANE_FAILURE_KIND_UNSPECIFIED, "the mod cannot decode the call frame: "+err.Error())
		return
	}
	req := call.GetRequest()
	if tp == "" {
		tp = call.GetTraceparent()
	}
	if tp != "" && s.Trace != nil {
		ctx = s.Trace(ctx, tp, call.GetTracestate(), call.GetBaggage())
	}
	var decoded any
	if call.GetCheck() || call.GetHook() != nil {
		var stop *pb.LaneStopped
		var done bool
		decoded, stop, done = s.ahead(ctx, id, call)
		switch {
		case done:
			return
		case stop != nil:
			s.sendStopped(id, stop)
			return
		}
	}
	var tracked LaneTracked
	end := func() {}
	switch {
	case s.Track != nil:
		tracked = s.track(id, pb.Mod_CallTool_FullMethodName, req)
	case s.Begin != nil:
		end = s.Begin(ctx, pb.Mod_CallTool_FullMethodName, req)
	}
	r := &m.r
	fillCall(r, req)
	r.Decoded = decoded
	if call.GetLive() {
		// Posted, not written: the handler never waits for the host, and
		// updates that queue behind a write leave as one frame, with the
		// outcome when the handler ends first. A failed post means the
		// lane is gone; the handler sees its context cancelled.
		r.Watcher = m
	}
	resp, err := s.Impl.CallTool(ctx, r)
	// The handler has ended before the host hears of it.
	if tracked != nil {
		tracked.End()
	}
	end()
	if err != nil {
		s.failCall(id, pb.LaneFailureKind_LANE_FAILURE_KIND_UNSPECIFIED, err.Error())
		return
	}
	// Activity posted before still leaves first: frames leave in order.
	if resp.Outcome.Status == modapi.StatusCancelled {
		return
	}
	out := &m.out
	out.Outcome = &m.outcome
	fillOutcome(out.Outcome, &resp.Outcome)
	if len(resp.Activity) > 0 {
		out.Activity = make([]*pb.Activity, len(resp.Activity))
		for i, u := range resp.Activity {
			out.Activity[i] = ActivityToProto(u)
		}
	}
	spans := s.takeSpans(&out.Spans)
	err = s.w.send(id, kindOutcome, out)
	putSpans(spans)
	if err != nil {
		// Declared here, not above: errors.As moves big to the heap.
		var big *payloadTooLargeError
		if errors.As(err, &big) {
			s.failCall(id, pb.LaneFailureKind_LANE_FAILURE_KIND_RESPONSE_TOO_LARGE, "the mod's outcome is "+big.Error())
		}
	}
}

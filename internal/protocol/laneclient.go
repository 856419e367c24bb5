package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// LaneOptions configure a [LaneClient].
type LaneOptions struct {
	// MaxMessageBytes is the largest frame payload either side sends: a
	// request over it is refused before it is sent, a frame from the mod
	// over it fails its call. It must be the mod's limit too.
	MaxMessageBytes int
	// Trace returns the W3C trace context of a call made under ctx, ok
	// false when the call is not traced. Nil: no call is traced.
	Trace func(ctx context.Context) (traceparent, tracestate, baggage string, ok bool)
	// Spans receives the spans the mod sends back with an outcome, an
	// encoded SpanBatch. Nil: they are dropped.
	Spans func(batch string)
	// Violation is called once when the mod breaks the lane's protocol (a
	// frame that is not one the host expects or does not decode): the lane
	// is closed, and every pending call has failed. Nil: nothing more.
	Violation func(err error)
	// Steps makes a call's other steps (hooks, input checks, approval
	// rules) go over the lane too: set it when the mod serves them there
	// (modapi.DescribeResponse.LaneSteps); otherwise they go over gRPC.
	Steps bool
}

// LaneClient is a mod in another process whose tool calls go over its call
// lane, with their steps when the mod serves them there
// ([LaneOptions.Steps]); everything else goes over gRPC, through the
// embedded [GRPCClient].
//
// No goroutine of its own reads the lane: a caller waiting for its call's
// frames reads it when no other caller does (it holds the read token),
// queues the frames of other calls for theirs and wakes them, and once its
// own came passes the token to a caller still waiting. The rules, each
// kept under mu, that make sure a waiting call is never left with nobody
// reading:
//
//   - only the token holder reads the lane, so only it queues frames; a
//     caller takes the token only after finding, under mu, no frame
//     queued for its call, and so never reads for frames already read;
//   - a caller sleeps (its call is in idle, with sleeping set) only while
//     another holds the token (reader != nil), with no frame queued for
//     its call and nothing in its ready channel;
//   - whoever takes a sleeper out of idle (the reader, for its frames;
//     the reader or a leaving caller, to pass it the token) sends it one
//     value on ready, still holding mu; a sleeper that leaves for its ctx
//     takes itself out, and passes on the token if it was passed it;
//   - the reader wakes every sleeper it queued frames for before a read
//     that may block, and before giving up the token;
//   - the token is given up (reader = nil) only when idle is empty;
//     otherwise it goes to a sleeper.
//
// So while a call waits (sleeps), some caller holds the token and reads,
// or the lane has failed (done is closed, which wakes every sleeper).
type LaneClient struct {
	*GRPCClient
	opts  LaneOptions
	conn  net.Conn
	w     frameWriter
	apart atomic.Int64 // steps sent apart from their call

	// spare holds the laneCalls of ended calls, with their ready channels,
	// for the next calls: two allocations and about 400 bytes a call.
	spare sync.Pool

	// Used by the token holder alone.
	fr      *frameReader
	unwoken []*laneCall // calls with frames queued since the reader last woke them

	mu     sync.Mutex
	calls  map[uint64]*laneCall // the calls waiting for their end
	last   uint64               // the last call id issued
	reader *laneCall            // the call whose caller holds the read token, nil for none
	idle   []*laneCall          // the calls whose callers sleep until woken
	err    error                // why the lane is closed, once it is
	done   chan struct{}        // closed with err set

	// A reader whose ctx ends is interrupted by a read deadline, which only
	// the read session it was set for may see.
	session  uint64 // the read session under way, 0 for none
	sessions uint64 // read sessions begun
	deadline bool   // a read deadline is set, and must be cleared
}

var _ modapi.Mod = (*LaneClient)(nil)

// NewLaneClient returns the client of the mod that g calls over gRPC and
// that serves tool calls on conn, the host's end of its call lane. Its
// callers read conn, one at a time, while their calls wait for frames.
func NewLaneClient(g *GRPCClient, conn net.Conn, opts LaneOptions) *LaneClient {
	c := &LaneClient{GRPCClient: g, opts: opts, conn: conn, calls: map[uint64]*laneCall{}, done: make(chan struct{})}
	c.w = frameWriter{w: conn, limit: opts.MaxMessageBytes}
	c.fr = newFrameReader(conn, opts.MaxMessageBytes)
	// Nothing an outcome decodes points into its payload (but the spans,
	// copied when it came from the pool), so it goes back once decoded.
	c.fr.pool = 1 << kindOutcome
	return c
}

// errLaneClosed is the lane's error once the host closed it.
var errLaneClosed = errors.New("the host closed the call lane")

// Close closes the lane: pending calls fail as broken.
func (c *LaneClient) Close() error {
	c.fail(errLaneClosed)
	return nil
}

// laneCall is one call waiting on the lane: the lane's reader queues its
// frames, and the caller's goroutine handles them, in order.
type laneCall struct {
	mu     *sync.Mutex // the client's: it guards frames and sleeping
	frames []laneFrame
	ready  chan struct{} // a value when the caller is taken out of idle; made at its first sleep

	// The caller sleeps in the client's idle set.
	sleeping bool

	// The first backing arrays of frames and of the caller's copy: most
	// calls get one or two frames, so queueing them allocates nothing.
	queued, taken [2]laneFrame
}

type laneFrame struct {
	kind    frameKind
	payload []byte
	buf     *[]byte // the payload's, from framePool: put back once handled
	err     error   // a frame over the limit
}

// release puts the frame's payload back in the pool.
func (f laneFrame) release() {
	*f.buf = f.payload[:0]
	putFrame(f.buf)
}

// take returns the frames queued and queues the next ones in done, the
// frames the caller took before and has handled.
func (lc *laneCall) take(done []laneFrame) []laneFrame {
	clear(done) // let their payloads go
	lc.mu.Lock()
	frames := lc.frames
	lc.frames = done[:0]
	lc.mu.Unlock()
	return frames
}

// start registers a new call and returns its id, or the lane's error.
func (c *LaneClient) start() (uint64, *laneCall, error) {
	lc, _ := c.spare.Get().(*laneCall)
	if lc == nil {
		lc = &laneCall{mu: &c.mu}
	}
	lc.frames = lc.queued[:0]
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, nil, c.err
	}
	c.last++
	c.calls[c.last] = lc
	return c.last, lc, nil
}

// release keeps lc, whose call has ended, for a later call. Nothing
// holds it but the reader's list of calls to wake (unwoken), whose wake
// does nothing to a call that is not sleeping: a later call that sleeps
// on lc may be woken once for nothing, and sleeps again.
func (c *LaneClient) release(lc *laneCall) {
	clear(lc.queued[:])
	clear(lc.taken[:])
	lc.frames = nil
	c.spare.Put(lc)
}

// forget removes call id, whose caller has given up.
func (c *LaneClient) forget(id uint64) {
	c.mu.Lock()
	delete(c.calls, id)
	c.mu.Unlock()
}

// open starts a call on the lane (a tool call or a step, by kind) and
// sends its frame, carrying m; it returns the call's id and its queue, or
// the error the caller returns.
func (c *LaneClient) open(ctx context.Context, kind frameKind, m proto.Message) (uint64, *laneCall, error) {
	if err := ctx.Err(); err != nil {
		return 0, nil, ctxError(err)
	}
	id, lc, err := c.start()
	if err != nil {
		return 0, nil, brokenError(err)
	}
	if err := c.w.send(id, kind, m); err != nil {
		c.forget(id)
		var big *payloadTooLargeError
		if errors.As(err, &big) {
			return 0, nil, &modapi.TransportError{Kind: modapi.TransportRequestTooLarge,
				Msg: "the host's " + kind.String() + " frame is " + big.Error(), Err: err}
		}
		c.fail(fmt.Errorf("write: %w", err))
		return 0, nil, brokenError(c.laneErr())
	}
	return id, lc, nil
}

// callFrame is a call frame's messages: the call, its request and its
// session, and the hook ahead of it.
type callFrame struct {
	call pb.LaneCall
	callProto
	hook actionProto
}

// callFrames holds callFrames for reuse: a call frame's messages are done
// with once the frame is encoded, as it is before open returns.
var callFrames = sync.Pool{New: func() any { return new(callFrame) }}

// CallTool implements modapi.Mod over the lane: a call frame, then the
// mod's activity frames (when req.Live watches them) and its outcome
// or failure. A cancelled ctx sends a cancel frame and returns at once.
func (c *LaneClient) CallTool(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	if req.Ahead != nil && !c.opts.Steps {
		return nil, errNoAhead
	}
	m := callFrames.Get().(*callFrame)
	m.callProto.fill(req)
	call := &m.call
	call.Request, call.Live = &m.req, req.Live()
	if a := req.Ahead; a != nil {
		call.Check, call.HookTimeoutMillis = a.Check, a.HookTimeout.Milliseconds()
		if a.Hook != nil {
			m.hook.fill(a.Hook)
			call.Hook = &m.hook.req
		}
	}
	if c.opts.Trace != nil {
		call.Traceparent, call.Tracestate, call.Baggage, _ = c.opts.Trace(ctx)
	}
	id, lc, err := c.open(ctx, kindCall, call)
	*m = callFrame{} // lets go of req's data
	callFrames.Put(m)
	if err != nil {
		return nil, err
	}
	resp, err := c.await(ctx, req, id, lc)
	c.release(lc)
	return resp, err
}

// await handles the frames of call id, which req made, until its end.
func (c *LaneClient) await(ctx context.Context, req *modapi.CallRequest, id uint64, lc *laneCall) (*modapi.CallResponse, error) {
	frames := lc.taken[:0]
	for {
		frames = lc.take(frames)
		for _, f := range frames {
			resp, err, end := c.handle(req, f)
			if end {
				return resp, err
			}
		}
		if err := c.wait(ctx, id, lc); err != nil {
			return nil, err
		}
	}
}

// wait waits until call id has frames queued in lc, and returns nil; or
// the call's error when its ctx ended (the mod is sent a cancel frame) or
// the lane closed before any came. While no other caller reads the lane,
// this one does, until frames for its call come: alone on the lane, a
// call reads its outcome on its own goroutine, with no thread woken to
// pass it on.
func (c *LaneClient) wait(ctx context.Context, id uint64, lc *laneCall) error {
	c.mu.Lock()
	for {
		var err error
		leaving := false
		switch {
		case len(lc.frames) > 0:
		case c.err != nil:
			err = brokenError(c.err)
		case ctx.Err() != nil:
			leaving = true
		case c.reader == nil || c.reader == lc:
			c.reader = lc
			c.readFor(ctx, lc) // returns with c.mu held, the token passed on
			continue
		default:
			c.sleep(ctx, lc)
			continue
		}
		if c.reader == lc {
			c.passToken() // passed it while leaving
		}
		c.mu.Unlock()
		if leaving {
			return c.leave(ctx, id)
		}
		return err
	}
}

// sleep waits, while another caller reads the lane, until it queues
// frames for lc or passes lc the read token, or lc's ctx ends or the lane
// fails. It is called and returns with c.mu held.
func (c *LaneClient) sleep(ctx context.Context, lc *laneCall) {
	if lc.ready == nil {
		// Only a sleeper is sent a value: a call alone on the lane, which
		// reads its own outcome, never needs one.
		lc.ready = make(chan struct{}, 1)
	}
	lc.sleeping = true
	c.idle = append(c.idle, lc)
	c.mu.Unlock()
	select {
	case <-lc.ready:
		c.mu.Lock()
		return
	case <-ctx.Done():
	case <-c.done:
	}
	c.mu.Lock()
	// Out of idle, with the one value on ready taken: from now, nobody
	// sends lc one. The token, if it was passed it, goes on when the
	// caller leaves.
	c.wake(lc)
	<-lc.ready
}

// leave ends call id, whose ctx ended: the mod is sent a cancel frame.
func (c *LaneClient) leave(ctx context.Context, id uint64) error {
	c.forget(id)
	// The mod's handler sees its context cancelled; a failed send means
	// the lane is gone, which cancels it as well.
	_ = c.w.send(id, kindCancel, nil)
	return ctxError(ctx.Err())
}

// wake takes lc out of idle and sends it its one value on ready, if it
// sleeps there; c.mu is held.
func (c *LaneClient) wake(lc *laneCall) {
	if !lc.sleeping {
		return
	}
	lc.sleeping = false
	i := slices.Index(c.idle, lc)
	c.idle[i] = c.idle[len(c.idle)-1]
	c.idle[len(c.idle)-1] = nil
	c.idle = c.idle[:len(c.idle)-1]
	lc.ready <- struct{}{} // empty: see LaneClient
}

// passToken passes the read token on to a sleeping caller, or gives it up
// when none sleeps; c.mu is held.
func (c *LaneClient) passToken() {
	c.reader = nil
	if c.err != nil || len(c.idle) == 0 {
		return
	}
	next := c.idle[len(c.idle)-1] // the latest to sleep
	c.reader = next
	c.wake(next)
}

// aLongTimeAgo is a read deadline that has passed: it interrupts a read.
var aLongTimeAgo = time.Unix(1, 0)

// readFor reads the lane, as the holder of its read token, and queues
// each frame for its call, until frames for lc come, ctx ends or the lane
// fails; then it passes the token on. It is called and returns with c.mu
// held. A call's caller is woken once the frames already read are queued,
// not for each: a call's activity and outcome written together reach it in
// one wake.
func (c *LaneClient) readFor(ctx context.Context, lc *laneCall) {
	c.sessions++
	session := c.sessions
	c.session = session
	c.mu.Unlock()
	stop := func() bool { return true }
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, func() {
			c.mu.Lock()
			if c.session == session {
				c.deadline = true
				_ = c.conn.SetReadDeadline(aLongTimeAgo)
			}
			c.mu.Unlock()
		})
	}
	c.readFrames(ctx, lc)
	stop()
	// Still held: the token, and c.mu, from readFrames.
	c.session = 0
	if c.deadline {
		c.deadline = false
		_ = c.conn.SetReadDeadline(time.Time{})
	}
	c.passToken()
}

// readFrames is readFor's loop. It returns with c.mu held, lc's callers'
// frames queued and each caller they were queued for woken.
func (c *LaneClient) readFrames(ctx context.Context, lc *laneCall) {
	fr := c.fr
	failed := false
	for {
		if failed || !fr.hasFrame() {
			// The next read may block: first wake those with frames.
			c.mu.Lock()
			for _, w := range c.unwoken {
				c.wake(w)
			}
			clear(c.unwoken)
			c.unwoken = c.unwoken[:0]
			if len(lc.frames) > 0 || ctx.Err() != nil || c.err != nil {
				return
			}
			c.mu.Unlock()
		}
		id, kind, payload, err := fr.next()
		switch {
		case err == nil:
		case isFrameTooLarge(err):
			// Skipped: it fails its call alone, as a message over gRPC's
			// limit does.
		case errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil:
			continue // interrupted: ctx ended
		case err == io.EOF:
			c.fail(errors.New("the mod closed the call lane"))
			failed = true
			continue
		default:
			c.fail(err)
			failed = true
			continue
		}
		if kind != kindActivity && kind != kindOutcome && kind != kindFailure && kind != kindStepEnd {
			c.fail(&violation{fmt.Errorf("a frame (%s) for call %d, which only the host sends", kind, id)})
			failed = true
			continue
		}
		c.mu.Lock()
		to := c.calls[id]
		if to != nil {
			if kind != kindActivity || err != nil {
				delete(c.calls, id)
			}
			to.frames = append(to.frames, laneFrame{kind: kind, payload: payload, buf: fr.buf, err: err})
		}
		last := c.last
		c.mu.Unlock()
		switch {
		case to == nil && (id == 0 || id > last):
			c.fail(&violation{fmt.Errorf("a frame (%s) for call %d, which the host never made", kind, id)})
			failed = true
		case to == nil || to == lc:
			// A call its caller gave up on; or the reader's own.
		case !slices.Contains(c.unwoken, to):
			c.unwoken = append(c.unwoken, to)
		}
	}
}

// handle handles one frame of a call; end reports that the call ended.
func (c *LaneClient) handle(req *modapi.CallRequest, f laneFrame) (resp *modapi.CallResponse, err error, end bool) {
	if f.err != nil {
		return nil, &modapi.TransportError{Kind: modapi.TransportResponseTooLarge, Msg: "the mod's " + f.err.Error(), Err: f.err}, true
	}
	switch f.kind {
	case kindActivity:
		// Decoded whole first, once: a frame that does not decode delivers
		// none of its updates. A batch's updates fit on the stack.
		var buf [16]sdk.ActivityUpdate
		updates, logs := buf[:0], 0
		for at := 0; ; {
			u, next, ok, err := nextActivity(f.payload, at)
			if err != nil {
				return nil, c.violated(fmt.Errorf("an activity frame does not decode: %w", err)), true
			}
			if !ok {
				break
			}
			updates = append(updates, u)
			if u.Kind == sdk.ActivityLog {
				logs++
			}
			at = next
		}
		if req.Live() {
			req.MakeRoom(logs)
			for _, u := range updates {
				req.Deliver(u)
			}
		}
		return nil, nil, false
	case kindOutcome:
		if f.buf != nil {
			defer f.release()
		}
		m := outcomeProtos.Get().(*outcomeProto)
		defer m.release()
		o := &m.o
		rest, spans := cutSpans(f.payload, outcomeSpans)
		if hasMessage(rest, outcomeOutcome) {
			o.Outcome = &m.outcome // decoded into, as it would be into its own
		}
		if err := (proto.UnmarshalOptions{Merge: true}).Unmarshal(rest, o); err != nil {
			return nil, c.violated(fmt.Errorf("an outcome frame does not decode: %w", err)), true
		}
		switch {
		case spans == nil:
			spans = o.GetSpans()
		case f.buf != nil && len(spans) > 0 && c.opts.Spans != nil:
			// The payload goes back to the pool: the spans leave it.
			spans = slices.Clone(spans)
		}
		if len(spans) > 0 && c.opts.Spans != nil {
			// The spans point into the frame's payload, a copy of it, or
			// Unmarshal's copy, which nothing writes again.
			c.opts.Spans(unsafe.String(unsafe.SliceData(spans), len(spans)))
		}
		if st := o.GetStopped(); st != nil {
			if req.Ahead == nil {
				return nil, c.violated(errors.New("an outcome frame stops a call before steps it did not carry")), true
			}
			return &modapi.CallResponse{Stopped: stoppedFromProto(st)}, nil, true
		}
		if o.GetOutcome() == nil {
			return nil, modapi.ErrNoOutcome, true
		}
		out := &modapi.CallResponse{Outcome: OutcomeFromProto(o.GetOutcome())}
		if acts := o.GetActivity(); len(acts) > 0 {
			out.Activity = make([]sdk.ActivityUpdate, len(acts))
			for i, a := range acts {
				out.Activity[i] = ActivityFromProto(a)
			}
		}
		return out, nil, true
	case kindFailure:
		return nil, c.failure(f.payload), true
	}
	// The reader passes no other kind; a step result answers a step, not a call.
	return nil, c.violated(fmt.Errorf("a frame (%s) the host does not expect", f.kind)), true
}

// outcomeProto is what an outcome frame decodes into. What the host
// keeps of it is converted out of it, or decoded apart (strings, bytes
// and lists), so it is reused.
type outcomeProto struct {
	o       pb.LaneOutcome
	outcome pb.Outcome
}

var outcomeProtos = sync.Pool{New: func() any { return new(outcomeProto) }}

func (m *outcomeProto) release() {
	*m = outcomeProto{}
	outcomeProtos.Put(m)
}

// outcomeOutcome is the number of LaneOutcome's outcome field.
var outcomeOutcome = (&pb.LaneOutcome{}).ProtoReflect().Descriptor().Fields().ByName("outcome").Number()

// hasMessage reports whether msg has field num as protobuf decodes a
// message field: with its wire type (under another it is an unknown
// field). For a msg that does not parse it may say either: that msg
// does not decode.
func hasMessage(msg []byte, num protowire.Number) bool {
	for i := 0; i < len(msg); {
		n, typ, k := protowire.ConsumeTag(msg[i:])
		if k < 0 {
			return false
		}
		if n == num && typ == protowire.BytesType {
			return true
		}
		v := protowire.ConsumeFieldValue(n, typ, msg[i+k:])
		if v < 0 {
			return false
		}
		i += k + v
	}
	return false
}

// failure is the error of a call the mod ended with a failure frame
// carrying payload.
func (c *LaneClient) failure(payload []byte) error {
	var fl pb.LaneFailure
	if err := proto.Unmarshal(payload, &fl); err != nil {
		return c.violated(fmt.Errorf("a failure frame does not decode: %w", err))
	}
	te := &modapi.TransportError{Kind: modapi.TransportOther, Msg: fl.GetMessage()}
	switch fl.GetKind() {
	case pb.LaneFailureKind_LANE_FAILURE_KIND_REQUEST_TOO_LARGE:
		te.Kind = modapi.TransportRequestTooLarge
	case pb.LaneFailureKind_LANE_FAILURE_KIND_RESPONSE_TOO_LARGE:
		te.Kind = modapi.TransportResponseTooLarge
	}
	te.Err = errors.New(te.Msg)
	return te
}

// violated fails the lane for a frame the mod should not have sent and
// returns the call's error, which names the frame even when the lane had
// failed already (the mod closed it after sending the frame).
func (c *LaneClient) violated(err error) error {
	v := &violation{err}
	c.fail(v)
	return brokenError(v)
}

// violation is the mod breaking the lane's protocol.
type violation struct{ err error }

func (v *violation) Error() string { return "the mod broke the call lane's protocol: " + v.err.Error() }
func (v *violation) Unwrap() error { return v.err }

// fail closes the lane for err, once: pending calls end broken.
func (c *LaneClient) fail(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	c.calls = nil
	c.mu.Unlock()
	// Before the pending calls end, so that the host can say why.
	var v *violation
	if errors.As(err, &v) && c.opts.Violation != nil {
		c.opts.Violation(err)
	}
	c.conn.Close()
	close(c.done)
}

func (c *LaneClient) laneErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// brokenError is a call's error when the lane failed with err.
func brokenError(err error) error {
	return &modapi.TransportError{Kind: modapi.TransportBroken, Msg: err.Error(), Err: err}
}

// ctxError is a call's error when its context ended, as gRPC words it.
func ctxError(err error) error {
	te := &modapi.TransportError{Kind: modapi.TransportBroken, Msg: err.Error(), Err: err}
	if errors.Is(err, context.DeadlineExceeded) {
		te.Kind = modapi.TransportDeadline
	}
	return te
}

package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

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
type LaneClient struct {
	*GRPCClient
	opts  LaneOptions
	conn  net.Conn
	w     frameWriter
	apart atomic.Int64 // steps sent apart from their call

	mu    sync.Mutex
	calls map[uint64]*laneCall // the calls waiting for their end
	last  uint64               // the last call id issued
	err   error                // why the lane is closed, once it is
	done  chan struct{}        // closed with err set
}

var _ modapi.Mod = (*LaneClient)(nil)

// NewLaneClient returns the client of the mod that g calls over gRPC and
// that serves tool calls on conn, the host's end of its call lane. It
// reads conn until Close or until the lane fails.
func NewLaneClient(g *GRPCClient, conn net.Conn, opts LaneOptions) *LaneClient {
	c := &LaneClient{GRPCClient: g, opts: opts, conn: conn, calls: map[uint64]*laneCall{}, done: make(chan struct{})}
	c.w = frameWriter{w: conn, limit: opts.MaxMessageBytes}
	go c.read()
	return c
}

// errLaneClosed is the lane's error once the host closed it.
var errLaneClosed = errors.New("the host closed the call lane")

// Close closes the lane: pending calls fail as broken.
func (c *LaneClient) Close() error {
	c.fail(errLaneClosed)
	return nil
}

// laneCall is one call waiting on the lane: the reader queues its frames,
// and the caller's goroutine handles them, in order.
type laneCall struct {
	mu     sync.Mutex
	frames []laneFrame
	ready  chan struct{} // has a value when frames has

	// The first backing arrays of frames and of the caller's copy: most
	// calls get one or two frames, so queueing them allocates nothing.
	queued, taken [2]laneFrame
}

type laneFrame struct {
	kind    frameKind
	payload []byte
	err     error // a frame over the limit
}

// add queues f; the caller sees it once wake is called.
func (lc *laneCall) add(f laneFrame) {
	lc.mu.Lock()
	lc.frames = append(lc.frames, f)
	lc.mu.Unlock()
}

// wake tells the caller frames are queued.
func (lc *laneCall) wake() {
	select {
	case lc.ready <- struct{}{}:
	default:
	}
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
	lc := &laneCall{ready: make(chan struct{}, 1)}
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

// CallTool implements modapi.Mod over the lane: a call frame, then the
// mod's activity frames (when req.OnActivity watches them) and its outcome
// or failure. A cancelled ctx sends a cancel frame and returns at once.
func (c *LaneClient) CallTool(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	call := &pb.LaneCall{
		Request: callToProto(req),
		Live:    req.OnActivity != nil,
	}
	if a := req.Ahead; a != nil {
		if !c.opts.Steps {
			return nil, errNoAhead
		}
		call.Check, call.HookTimeoutMillis = a.Check, a.HookTimeout.Milliseconds()
		if a.Hook != nil {
			call.Hook = actionToProto(a.Hook)
		}
	}
	if c.opts.Trace != nil {
		call.Traceparent, call.Tracestate, call.Baggage, _ = c.opts.Trace(ctx)
	}
	id, lc, err := c.open(ctx, kindCall, call)
	if err != nil {
		return nil, err
	}
	frames := lc.taken[:0]
	closed := false
	for {
		frames = lc.take(frames)
		for _, f := range frames {
			resp, err, end := c.handle(req, f)
			if end {
				return resp, err
			}
		}
		if err := c.wait(ctx, id, lc, &closed); err != nil {
			return nil, err
		}
	}
}

// wait waits until call id may have frames queued in lc, and returns nil;
// or the call's error when its ctx ended (the mod is sent a cancel frame)
// or the lane closed (closed set) before any came.
func (c *LaneClient) wait(ctx context.Context, id uint64, lc *laneCall, closed *bool) error {
	if *closed {
		return brokenError(c.laneErr())
	}
	select {
	case <-lc.ready:
	case <-ctx.Done():
		c.forget(id)
		// The mod's handler sees its context cancelled; a failed send
		// means the lane is gone, which cancels it as well.
		_ = c.w.send(id, kindCancel, nil)
		return ctxError(ctx.Err())
	case <-c.done:
		// Frames queued before the lane closed still count.
		*closed = true
	}
	return nil
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
		updates := buf[:0]
		if err := eachActivity(f.payload, func(u sdk.ActivityUpdate) { updates = append(updates, u) }); err != nil {
			return nil, c.violated(fmt.Errorf("an activity frame does not decode: %w", err)), true
		}
		if req.OnActivity != nil {
			for _, u := range updates {
				req.OnActivity(u)
			}
		}
		return nil, nil, false
	case kindOutcome:
		var o pb.LaneOutcome
		if err := proto.Unmarshal(f.payload, &o); err != nil {
			return nil, c.violated(fmt.Errorf("an outcome frame does not decode: %w", err)), true
		}
		if spans := o.GetSpans(); len(spans) > 0 && c.opts.Spans != nil {
			// Unmarshal copied the spans out of the frame into bytes of
			// their own, which nothing writes again: no second copy.
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

// read reads the mod's frames and queues each for its call, until the lane
// fails. A call's caller is woken once the frames already read are queued,
// not for each: a call's activity and outcome written together reach it in
// one wake.
func (c *LaneClient) read() {
	fr := newFrameReader(c.conn, c.opts.MaxMessageBytes)
	var unwoken []*laneCall // calls with frames queued since their last wake
	for {
		if len(unwoken) > 0 && !fr.hasFrame() {
			for _, lc := range unwoken {
				lc.wake()
			}
			clear(unwoken)
			unwoken = unwoken[:0]
		}
		id, kind, payload, err := fr.next()
		switch {
		case err == nil:
		case isFrameTooLarge(err):
			// Skipped: it fails its call alone, as a message over gRPC's
			// limit does.
		case err == io.EOF:
			c.fail(errors.New("the mod closed the call lane"))
			return
		case err != nil:
			c.fail(err)
			return
		}
		if kind != kindActivity && kind != kindOutcome && kind != kindFailure && kind != kindStepEnd {
			c.fail(&violation{fmt.Errorf("a frame (%s) for call %d, which only the host sends", kind, id)})
			return
		}
		c.mu.Lock()
		lc := c.calls[id]
		if lc != nil && (kind != kindActivity || err != nil) {
			delete(c.calls, id)
		}
		last := c.last
		c.mu.Unlock()
		if lc == nil {
			if id == 0 || id > last {
				c.fail(&violation{fmt.Errorf("a frame (%s) for call %d, which the host never made", kind, id)})
				return
			}
			continue // a call its caller gave up on
		}
		lc.add(laneFrame{kind: kind, payload: payload, err: err})
		if !slices.Contains(unwoken, lc) {
			unwoken = append(unwoken, lc)
		}
	}
}

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

package protocol

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/sdk"
)

// frameKind says what a call lane frame's payload is.
type frameKind byte

// The frame kinds; see the protocol's doc, "The call lane".
const (
	kindCall     frameKind = 1 // host to mod: a pb.LaneCall
	kindCancel   frameKind = 2 // host to mod: no payload
	kindActivity frameKind = 3 // mod to host: a pb.ActivityBatch
	kindOutcome  frameKind = 4 // mod to host: a pb.LaneOutcome
	kindFailure  frameKind = 5 // mod to host: a pb.LaneFailure
	kindStep     frameKind = 6 // host to mod: a pb.LaneStep
	kindStepEnd  frameKind = 7 // mod to host: a pb.LaneStepResult
)

func (k frameKind) String() string {
	switch k {
	case kindCall:
		return "call"
	case kindCancel:
		return "cancel"
	case kindActivity:
		return "activity"
	case kindOutcome:
		return "outcome"
	case kindFailure:
		return "failure"
	case kindStep:
		return "step"
	case kindStepEnd:
		return "step result"
	}
	return fmt.Sprintf("kind %d", byte(k))
}

// frameHeaderLen is the length of a frame's header: the payload's length
// (4 bytes), the call id (8) and the kind (1), big-endian.
const frameHeaderLen = 13

// frameTooLargeError is a frame whose payload is over the reader's limit.
// The reader has skipped the payload: the next frame reads as usual.
type frameTooLargeError struct {
	id    uint64
	kind  frameKind
	n     int64
	limit int
}

func (e *frameTooLargeError) Error() string {
	return fmt.Sprintf("%s frame is %d bytes, over the %d-byte message limit", e.kind, e.n, e.limit)
}

// isFrameTooLarge reports whether err, from frameReader.next, is a
// *frameTooLargeError. Unlike errors.As with a variable of the caller's,
// it allocates nothing on the path every frame takes.
func isFrameTooLarge(err error) bool {
	_, ok := err.(*frameTooLargeError)
	return ok
}

// frameReader reads the frames of one call lane. A read that fails within
// a frame (a deadline that interrupts it) loses nothing: the next call of
// next goes on with that frame.
type frameReader struct {
	r     *bufio.Reader
	limit int
	// pool has bit k set when payloads of kind k come from framePool: buf
	// is the last one next returned, for its taker to put back once done
	// with it (nil: not from the pool).
	pool uint64
	buf  *[]byte

	// The frame under way, when within one: its header read, its payload
	// (or, over the limit, the bytes to skip) not yet whole.
	within  bool
	id      uint64
	kind    frameKind
	n       int64
	payload []byte
	filled  int
	skip    int64
}

// laneReadBuffer is the size of a lane reader's buffer: several small
// frames arrive in one read.
const laneReadBuffer = 16 << 10

func newFrameReader(r io.Reader, limit int) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, laneReadBuffer), limit: limit}
}

// next reads the next frame. Its payload is the caller's to keep, unless
// it came from the pool (fr.buf): nothing writes it again (delivered
// activity texts point into it). A payload over
// the limit is never allocated:
// it is skipped, and next returns a *frameTooLargeError naming the frame.
// io.EOF means the lane closed between frames; io.ErrUnexpectedEOF, within
// one.
func (fr *frameReader) next() (id uint64, kind frameKind, payload []byte, err error) {
	if !fr.within {
		hdr, err := fr.r.Peek(frameHeaderLen)
		if err != nil {
			if err == io.EOF && len(hdr) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return 0, 0, nil, err
		}
		fr.n = int64(binary.BigEndian.Uint32(hdr[0:4]))
		fr.id = binary.BigEndian.Uint64(hdr[4:12])
		fr.kind = frameKind(hdr[12])
		fr.r.Discard(frameHeaderLen) // buffered: cannot fail
		fr.within, fr.filled, fr.skip, fr.payload, fr.buf = true, 0, 0, nil, nil
		switch {
		case fr.n > int64(fr.limit):
			fr.skip = fr.n
		case fr.n > 0 && fr.pool&(1<<fr.kind) != 0 && fr.n <= maxPooledFrame:
			fr.buf = getFrame()
			fr.payload = append((*fr.buf)[:0], make([]byte, fr.n)...)
		case fr.n > 0:
			fr.payload = make([]byte, fr.n)
		}
	}
	for fr.skip > 0 {
		k, err := fr.r.Discard(int(min(fr.skip, laneReadBuffer)))
		fr.skip -= int64(k)
		if err != nil {
			return 0, 0, nil, unexpected(err)
		}
	}
	for fr.filled < len(fr.payload) {
		k, err := fr.r.Read(fr.payload[fr.filled:])
		fr.filled += k
		if err != nil {
			return 0, 0, nil, unexpected(err)
		}
	}
	fr.within = false
	id, kind, payload = fr.id, fr.kind, fr.payload
	fr.payload = nil
	if fr.n > int64(fr.limit) {
		return id, kind, nil, &frameTooLargeError{id: id, kind: kind, n: fr.n, limit: fr.limit}
	}
	return id, kind, payload, nil
}

// hasFrame reports whether a whole frame is buffered: next returns it
// without reading from the lane.
func (fr *frameReader) hasFrame() bool {
	if fr.within {
		return false
	}
	n := fr.r.Buffered()
	if n < frameHeaderLen {
		return false
	}
	hdr, err := fr.r.Peek(frameHeaderLen)
	if err != nil {
		return false
	}
	return int64(n) >= frameHeaderLen+int64(binary.BigEndian.Uint32(hdr))
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// framePool holds frame buffers for reuse; large ones are dropped.
var framePool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

const maxPooledFrame = 64 << 10

func getFrame() *[]byte { return framePool.Get().(*[]byte) }

func putFrame(b *[]byte) {
	if cap(*b) <= maxPooledFrame {
		*b = (*b)[:0]
		framePool.Put(b)
	}
}

// payloadTooLargeError is a message over the writer's limit; nothing was
// sent.
type payloadTooLargeError struct {
	n, limit int
}

func (e *payloadTooLargeError) Error() string {
	return fmt.Sprintf("%d bytes, over the %d-byte message limit", e.n, e.limit)
}

// appendFrame appends to buf the frame of kind for call id carrying m (nil:
// no payload), refusing a payload over limit bytes with a
// *payloadTooLargeError.
func appendFrame(buf []byte, id uint64, kind frameKind, m proto.Message, limit int) ([]byte, error) {
	start := len(buf)
	buf = append(buf, make([]byte, frameHeaderLen)...)
	if m != nil {
		var err error
		if buf, err = (proto.MarshalOptions{}).MarshalAppend(buf, m); err != nil {
			return buf[:start], err
		}
	}
	return endFrame(buf, start, id, kind, limit)
}

// endFrame writes the header of the frame at buf[start:], whose payload
// follows the header, refusing a payload over limit bytes.
func endFrame(buf []byte, start int, id uint64, kind frameKind, limit int) ([]byte, error) {
	n := len(buf) - start - frameHeaderLen
	if n > limit || n > math.MaxUint32 {
		return buf[:start], &payloadTooLargeError{n: n, limit: limit}
	}
	binary.BigEndian.PutUint32(buf[start:], uint32(n))
	binary.BigEndian.PutUint64(buf[start+4:], id)
	buf[start+12] = byte(kind)
	return buf, nil
}

// frameWriter writes whole frames to a lane. Frames sent while another
// is being written wait in a buffer and leave together, in order, in the
// next write: under concurrent calls, fewer system calls. Activity frames
// of one call that wait next to each other become one frame, since the
// encodings of two ActivityBatch messages, concatenated, are the batch of
// both.
type frameWriter struct {
	w     io.Writer
	limit int

	mu       sync.Mutex
	flushing bool   // a sender is writing
	flusher  bool   // the flusher goroutine runs
	posts    int    // postActivity calls since the flusher last looked
	pending  []byte // frames waiting for a write
	spare    []byte
	lastAct  int   // 1 + where pending's last frame starts when postActivity wrote it, else 0
	err      error // the write that failed, for every later send
}

// send writes the frame of kind for call id carrying m (nil: none). A
// frame that waited for another sender's write returns before it is
// written; if that write fails, the lane is broken, which its reader
// finds.
func (fw *frameWriter) send(id uint64, kind frameKind, m proto.Message) error {
	b := getFrame()
	defer putFrame(b)
	var err error
	if *b, err = appendFrame((*b)[:0], id, kind, m, fw.limit); err != nil {
		return err
	}
	fw.mu.Lock()
	if fw.err != nil || fw.flushing {
		err = fw.err
		if err == nil {
			fw.queue(*b)
		}
		fw.mu.Unlock()
		return err
	}
	fw.flushing = true
	if len(fw.pending) > 0 {
		// Posted activity the flusher has not written yet: it leaves
		// first, in this write.
		fw.queue(*b)
		fw.drain(nil)
		err = fw.err
		fw.mu.Unlock()
		return err
	}
	fw.mu.Unlock()
	_, err = fw.w.Write(*b)
	fw.mu.Lock()
	fw.drain(err)
	fw.mu.Unlock()
	return err
}

// flushDelay and maxFlushDelay bound how long posted activity waits for a
// frame sent after it to carry it before the flusher writes it: a handler
// that ends soon after its updates sends them with its outcome, in one
// write, and a handler that runs on has them leave within maxFlushDelay,
// and then within flushDelay while handlers keep running past their
// updates.
const (
	flushDelay    = time.Millisecond
	maxFlushDelay = 4 * time.Millisecond
)

// postActivity queues the activity frame of call id carrying u and
// returns without waiting for it to be written: the next frame sent, or
// else the flusher within maxFlushDelay, writes it. A frame sent later leaves
// after it, so a call's activity is posted and its outcome sent. A write
// that fails breaks the lane, which its reader finds.
//
// The flusher is one goroutine that sleeps while activity is posted and
// ends once a whole sleep passes without any: a stream of live calls costs
// a wake per sleep, not a goroutine and a thread woken per call. It sleeps
// flushDelay after it found updates to write, and twice as long, up to
// maxFlushDelay, after it found none: the outcomes carried them.
//
// The update is encoded straight into the pending bytes, as one more
// update of the call's activity frame waiting there, or as a new frame.
func (fw *frameWriter) postActivity(id uint64, u sdk.ActivityUpdate) error {
	if !validText(u.Text) {
		return errActivityUTF8
	}
	kind := kindToProto(u.Kind)
	size := activitySize(kind, u.Text)
	n := updateSize(size)
	if n > fw.limit || n > math.MaxUint32 {
		return &payloadTooLargeError{n: n, limit: fw.limit}
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.err != nil {
		return fw.err
	}
	at := fw.lastAct - 1
	if at < 0 || binary.BigEndian.Uint64(fw.pending[at+4:]) != id ||
		len(fw.pending)-at-frameHeaderLen+n > min(fw.limit, math.MaxUint32) {
		// No frame of this call's activity waits last, or it is full: a
		// frame of its own.
		at = len(fw.pending)
		fw.pending = append(fw.pending, make([]byte, frameHeaderLen)...)
		binary.BigEndian.PutUint64(fw.pending[at+4:], id)
		fw.pending[at+12] = byte(kindActivity)
		fw.lastAct = at + 1
	}
	fw.pending = appendActivityUpdate(fw.pending, kind, u.Text, size)
	binary.BigEndian.PutUint32(fw.pending[at:], uint32(len(fw.pending)-at-frameHeaderLen))
	fw.posts++
	if !fw.flusher {
		fw.flusher = true
		go fw.flush()
	}
	return nil
}

// flush is the flusher: it writes what postActivity queued, until a
// sleep passes with nothing posted.
func (fw *frameWriter) flush() {
	delay := flushDelay
	for {
		time.Sleep(delay)
		wrote, more := fw.flushPosted()
		switch {
		case !more:
			return
		case wrote:
			delay = flushDelay
		default:
			delay = min(2*delay, maxFlushDelay)
		}
	}
}

// flushPosted writes the frames postActivity queued, unless a sender is
// writing (it drains them), and reports whether it wrote any and whether
// the flusher goes on: not when nothing was posted since it last looked,
// or the lane is broken.
func (fw *frameWriter) flushPosted() (wrote, more bool) {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.posts == 0 || fw.err != nil {
		fw.flusher = false
		return false, false
	}
	fw.posts = 0
	if !fw.flushing && len(fw.pending) > 0 {
		fw.flushing = true
		fw.drain(nil)
		return true, true
	}
	return false, true
}

// queue appends frame to the pending frames. fw.mu is held.
func (fw *frameWriter) queue(frame []byte) {
	fw.pending = append(fw.pending, frame...)
	fw.lastAct = 0
}

// drain writes the pending frames until none are left or a write fails
// (err, the last write's error, is not nil), then marks the writer idle.
// fw.mu is held, and released during writes.
func (fw *frameWriter) drain(err error) {
	for err == nil && len(fw.pending) > 0 {
		buf := fw.pending
		fw.pending, fw.spare, fw.lastAct = fw.spare[:0], nil, 0
		fw.mu.Unlock()
		_, err = fw.w.Write(buf)
		fw.mu.Lock()
		if cap(buf) <= maxPooledFrame {
			fw.spare = buf
		}
	}
	if err != nil {
		fw.err, fw.pending, fw.lastAct = err, nil, 0
	}
	fw.flushing = false
}

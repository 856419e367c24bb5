package modtrace

import (
	"context"
	"encoding/hex"
	"sync/atomic"
)

// SpanContext identifies a span and the trace it belongs to, as W3C trace
// context carries them, with the trace's state and baggage headers as they
// came.
type SpanContext struct {
	TraceID    [16]byte
	SpanID     [8]byte
	Flags      byte
	TraceState string
	Baggage    string
}

// Sampled reports whether the span is recorded: its sampled flag is set.
func (sc SpanContext) Sampled() bool { return sc.Flags&1 == 1 }

// Valid reports whether neither id is all zeros.
func (sc SpanContext) Valid() bool { return sc.TraceID != [16]byte{} && sc.SpanID != [8]byte{} }

// TraceparentLen is the length of a version 00 traceparent header.
const TraceparentLen = 55

// Traceparent returns the W3C traceparent header of sc.
func (sc SpanContext) Traceparent() string {
	var b [TraceparentLen]byte
	sc.PutTraceparent(&b)
	return string(b[:])
}

// PutTraceparent writes the W3C traceparent header of sc into b.
func (sc SpanContext) PutTraceparent(b *[TraceparentLen]byte) {
	copy(b[:], "00-")
	hex.Encode(b[3:35], sc.TraceID[:])
	b[35] = '-'
	hex.Encode(b[36:52], sc.SpanID[:])
	b[52] = '-'
	hex.Encode(b[53:55], []byte{sc.Flags})
}

// ParseTraceparent parses a W3C traceparent header. It accepts a later
// version's longer header, as the recommendation asks, and refuses version
// ff, upper-case hex and all-zero ids.
func ParseTraceparent(s string) (SpanContext, bool) {
	var sc SpanContext
	if len(s) < 55 || s[2] != '-' || s[35] != '-' || s[52] != '-' || (len(s) > 55 && s[55] != '-') {
		return sc, false
	}
	version, ok := hexByte(s[0], s[1])
	if !ok || version == 0xff || (version == 0 && len(s) != 55) {
		return sc, false
	}
	if !lowerHex(sc.TraceID[:], s[3:35]) || !lowerHex(sc.SpanID[:], s[36:52]) || !sc.Valid() {
		return SpanContext{}, false
	}
	if sc.Flags, ok = hexByte(s[53], s[54]); !ok {
		return SpanContext{}, false
	}
	return sc, true
}

// lowerHex decodes lower-case hex s, twice dst's length, into dst, in one
// pass.
func lowerHex(dst []byte, s string) bool {
	bad := byte(0)
	for i := range dst {
		hi, lo := hexValue[s[2*i]], hexValue[s[2*i+1]]
		bad |= hi | lo
		dst[i] = hi<<4 | lo&0xf
	}
	return bad&0x80 == 0
}

// hexByte is the byte of two lower-case hex digits.
func hexByte(hi, lo byte) (byte, bool) {
	h, l := hexValue[hi], hexValue[lo]
	return h<<4 | l&0xf, (h|l)&0x80 == 0
}

// hexValue is the value of each lower-case hex digit, and 0x80 for any
// other byte.
var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0x80
	}
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i)
	}
	return t
}()

// traced is what a context of a traced call carries: the current span's
// context and the recorder its spans go to.
type traced struct {
	sc  SpanContext
	rec *Recorder
	// room, for the host's span, holds the context of the first span
	// started under it (remoteWith).
	room *remoteContext
}

type tracedKey struct{}

// lookup returns what ctx carries, nil for a context of no traced call.
func lookup(ctx context.Context) *traced {
	t, _ := ctx.Value(tracedKey{}).(*traced)
	return t
}

// FromContext returns the span context ctx carries and the recorder of its
// spans; ok is false for a context of no traced call.
func FromContext(ctx context.Context) (sc SpanContext, rec *Recorder, ok bool) {
	t := lookup(ctx)
	if t == nil {
		return SpanContext{}, nil, false
	}
	return t.sc, t.rec, true
}

// Traced reports whether ctx is a traced call's: spans started under it
// are recorded.
func Traced(ctx context.Context) bool {
	t := lookup(ctx)
	return t != nil && t.sc.Sampled()
}

// ContextWith returns ctx carrying sc as its current span, whose spans
// rec records; remote says sc came from the host. The bridge, when one is
// set, puts sc where OpenTelemetry reads it too.
func ContextWith(ctx context.Context, sc SpanContext, rec *Recorder, remote bool) context.Context {
	return bridged(WithoutBridge(ctx, sc, rec), sc, remote)
}

// bridged is ctx as the bridge, when one is set, returns it.
func bridged(ctx context.Context, sc SpanContext, remote bool) context.Context {
	if b := bridge.Load(); b != nil {
		ctx = (*b)(ctx, sc, remote)
	}
	return ctx
}

// WithoutBridge is ContextWith without the bridge: for the bridge's own
// spans, already in the context where OpenTelemetry reads them.
func WithoutBridge(ctx context.Context, sc SpanContext, rec *Recorder) context.Context {
	return &tracedContext{Context: ctx, t: traced{sc: sc, rec: rec}}
}

// remoteWith is ContextWith for sc from the host: its context comes with
// room for the context of the first span started under it, the handler's,
// so that a traced call's two contexts take one allocation.
func remoteWith(ctx context.Context, sc SpanContext, rec *Recorder) context.Context {
	r := &remoteContext{}
	r.Context, r.t = ctx, traced{sc: sc, rec: rec, room: r}
	return bridged(&r.tracedContext, sc, true)
}

// remoteContext is the context of a span from the host, and room for
// the context of the first span started under it.
type remoteContext struct {
	tracedContext
	child tracedContext
	taken atomic.Bool
}

// under returns ctx, which carries t, carrying sc as its current span: a
// span started under t's. The first such span of a span from the host
// takes the room beside the host's span's context.
func (t *traced) under(ctx context.Context, sc SpanContext) context.Context {
	if r := t.room; r != nil && r.taken.CompareAndSwap(false, true) {
		c := &r.child
		c.Context, c.t = ctx, traced{sc: sc, rec: t.rec}
		return bridged(c, sc, false)
	}
	return ContextWith(ctx, sc, t.rec, false)
}

// tracedContext is context.WithValue(ctx, tracedKey{}, &t) in one
// allocation.
type tracedContext struct {
	context.Context
	t traced
}

func (c *tracedContext) Value(key any) any {
	if key == (tracedKey{}) {
		return &c.t
	}
	return c.Context.Value(key)
}

// A Bridge puts a span context where another tracing library reads it.
type Bridge func(ctx context.Context, sc SpanContext, remote bool) context.Context

var bridge atomic.Pointer[Bridge]

// SetBridge sets the process's bridge; sdk/otelbridge sets it when linked.
func SetBridge(b Bridge) { bridge.Store(&b) }

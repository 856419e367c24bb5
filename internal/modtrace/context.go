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
	var version [1]byte
	if !lowerHex(version[:], s[:2]) || version[0] == 0xff || (version[0] == 0 && len(s) != 55) {
		return sc, false
	}
	var flags [1]byte
	if !lowerHex(sc.TraceID[:], s[3:35]) || !lowerHex(sc.SpanID[:], s[36:52]) || !lowerHex(flags[:], s[53:55]) || !sc.Valid() {
		return SpanContext{}, false
	}
	sc.Flags = flags[0]
	return sc, true
}

// lowerHex decodes lower-case hex s into dst, which it fills exactly.
func lowerHex(dst []byte, s string) bool {
	for i := range len(s) {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	n, err := hex.Decode(dst, []byte(s))
	return err == nil && n == len(dst)
}

// traced is what a context of a traced call carries: the current span's
// context and the recorder its spans go to.
type traced struct {
	sc  SpanContext
	rec *Recorder
}

type tracedKey struct{}

// FromContext returns the span context ctx carries and the recorder of its
// spans; ok is false for a context of no traced call.
func FromContext(ctx context.Context) (sc SpanContext, rec *Recorder, ok bool) {
	t, ok := ctx.Value(tracedKey{}).(*traced)
	if !ok {
		return SpanContext{}, nil, false
	}
	return t.sc, t.rec, true
}

// Traced reports whether ctx is a traced call's: spans started under it
// are recorded.
func Traced(ctx context.Context) bool {
	t, ok := ctx.Value(tracedKey{}).(*traced)
	return ok && t.sc.Sampled()
}

// ContextWith returns ctx carrying sc as its current span, whose spans
// rec records; remote says sc came from the host. The bridge, when one is
// set, puts sc where OpenTelemetry reads it too.
func ContextWith(ctx context.Context, sc SpanContext, rec *Recorder, remote bool) context.Context {
	ctx = WithoutBridge(ctx, sc, rec)
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

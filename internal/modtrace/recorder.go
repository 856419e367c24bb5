package modtrace

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// MaxBuffered is how many finished spans a Recorder keeps before the next
// RPC takes them; spans past it are dropped and counted.
const MaxBuffered = 4096

// Recorder keeps a mod's finished spans until [Recorder.Take].
type Recorder struct {
	mu      sync.Mutex
	done    []*pb.Span
	dropped int
	// reused are the spans of done that [StartReused] made: once encoded
	// they go back to the pool.
	reused []*Span
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{} }

// Take returns the finished spans and forgets them, and how many were
// dropped since the last Take.
func (r *Recorder) Take() (spans []*pb.Span, dropped int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	spans, dropped = r.done, r.dropped
	r.done, r.dropped = nil, 0
	// The caller keeps the spans' records: none goes back to the pool.
	clear(r.reused)
	r.reused = r.reused[:0]
	return spans, dropped
}

// encoded takes the finished spans, encoded as a SpanBatch, or nil when
// there are none.
func (r *Recorder) encoded() []byte { return r.appendEncoded(nil) }

// appendEncoded takes the finished spans and appends them to dst, encoded
// as a SpanBatch; dst as it was when there are none. It writes the batch
// itself, in one pass: no batch message, and no reflection over the spans
// (spanwire.go), unless one holds what only protobuf can judge.
func (r *Recorder) appendEncoded(dst []byte) []byte {
	r.mu.Lock()
	if len(r.done) == 0 && r.dropped == 0 {
		r.mu.Unlock()
		return dst
	}
	spans, reused := r.done, r.reused
	r.done, r.dropped, r.reused = nil, 0, nil
	r.mu.Unlock()
	if len(spans) == 0 {
		return dst
	}
	defer r.giveBack(spans, reused)
	// Room for a handler's span (about 200 bytes); a bigger one grows b.
	b := slices.Grow(dst, 256*len(spans))
	for _, s := range spans {
		var ok bool
		if b, ok = appendSpan(b, spanBatchSpans, s); !ok {
			return protoEncoded(dst, spans)
		}
	}
	return b
}

// protoEncoded is appendEncoded by protobuf: dst as it was when protobuf
// refuses a span.
func protoEncoded(dst []byte, spans []*pb.Span) []byte {
	b := dst
	for _, s := range spans {
		b = protowire.AppendTag(b, spanBatchSpans, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(proto.Size(s)))
		var err error
		// The size Size just computed is cached in the message.
		if b, err = (proto.MarshalOptions{UseCachedSize: true}).MarshalAppend(b, s); err != nil {
			return dst
		}
	}
	return b
}

// giveBack keeps the arrays of spans, taken and encoded, for the next
// spans: a mod that records a span per call appends without growing one.
// The reused spans among them go back to the pool.
func (r *Recorder) giveBack(spans []*pb.Span, reused []*Span) {
	clear(spans)
	for i, s := range reused {
		*s = Span{}
		spanPool.Put(s)
		reused[i] = nil
	}
	r.mu.Lock()
	if r.done == nil {
		r.done = spans[:0]
	}
	if r.reused == nil {
		r.reused = reused[:0]
	}
	r.mu.Unlock()
}

// spanBatchSpans is the field number of SpanBatch.spans.
const spanBatchSpans = 1

// finish keeps s's record, done, until the next Take.
func (r *Recorder) finish(s *Span, done *pb.Span) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.done) >= MaxBuffered {
		r.dropped++
		return
	}
	r.done = append(r.done, done)
	if s.reuse {
		r.reused = append(r.reused, s)
	}
}

// Span kinds, as OpenTelemetry numbers them.
const (
	KindInternal int32 = 1
	KindServer   int32 = 2
)

// Status codes, as OpenTelemetry numbers them.
const (
	StatusError int32 = 1
	StatusOK    int32 = 2
)

// Span is a span being recorded. A nil *Span is a span of an untraced
// call: its methods do nothing.
type Span struct {
	rec *Recorder
	sc  SpanContext
	mu  sync.Mutex
	pb  *pb.Span // &record; nil once ended

	// The record and the parent's id its ids point into, and room for
	// the first string attributes ([Span.SetString]) and the record's
	// slice of them: one allocation for the span.
	record   pb.Span
	parentID [8]byte
	attrs    [inlineAttrs]pb.SpanAttribute
	values   [inlineAttrs]pb.SpanAttribute_StringValue
	ptrs     [inlineAttrs]*pb.SpanAttribute
	inline   int  // attrs used
	reuse    bool // from the pool, and back to it once encoded (StartReused)
}

// spanPool holds the spans of [StartReused] whose records were encoded.
var spanPool = sync.Pool{New: func() any { return new(Span) }}

// inlineAttrs is how many string attributes a span keeps without an
// allocation of their own: as many as the mod's handler span has.
const inlineAttrs = 2

// Start starts a span named name under ctx's span, when ctx is a traced
// call's (sampled); otherwise it returns ctx and a nil span.
func Start(ctx context.Context, scope, name string, kind int32, attrs ...*pb.SpanAttribute) (context.Context, *Span) {
	t := lookup(ctx)
	if t == nil || !t.sc.Sampled() {
		return ctx, nil
	}
	s := StartAt(t.rec, t.sc, scope, name, kind, time.Now(), attrs)
	return t.under(ctx, s.sc), s
}

// StartReused is Start for a span its holder drops at End: it comes from
// a pool, and goes back to it once its record is encoded for the host
// (the lane's outcome), for another span. Its holder must not use it
// after End, nor end it twice; nothing else holds it (its context holds
// a copy of its span context).
func StartReused(ctx context.Context, scope, name string, kind int32) (context.Context, *Span) {
	t := lookup(ctx)
	if t == nil || !t.sc.Sampled() {
		return ctx, nil
	}
	s := spanPool.Get().(*Span)
	s.start(t.rec, t.sc, scope, name, kind, time.Now(), nil)
	s.reuse = true
	return t.under(ctx, s.sc), s
}

// StartAt starts a span under parent, recorded by rec, at start: Start's
// work, for the bridge, which keeps the context itself.
func StartAt(rec *Recorder, parent SpanContext, scope, name string, kind int32, start time.Time, attrs []*pb.SpanAttribute) *Span {
	s := new(Span)
	s.start(rec, parent, scope, name, kind, start, attrs)
	return s
}

// start starts s, a zero span, as StartAt says.
func (s *Span) start(rec *Recorder, parent SpanContext, scope, name string, kind int32, start time.Time, attrs []*pb.SpanAttribute) {
	s.rec, s.sc, s.parentID = rec, parent, parent.SpanID
	binary.LittleEndian.PutUint64(s.sc.SpanID[:], rand.Uint64()|1)
	r := &s.record
	r.TraceId, r.SpanId, r.ParentSpanId = s.sc.TraceID[:], s.sc.SpanID[:], s.parentID[:]
	r.Name, r.Kind, r.StartUnixNano = name, kind, uint64(start.UnixNano())
	r.TraceState, r.Scope, r.Attributes = parent.TraceState, scope, attrs
	if len(attrs) == 0 {
		r.Attributes = s.ptrs[:0]
	}
	s.pb = r
}

// Context returns the span's context.
func (s *Span) Context() SpanContext {
	if s == nil {
		return SpanContext{}
	}
	return s.sc
}

// End ends the span at the time given, or now when it is zero; a second
// End does nothing.
func (s *Span) End(at time.Time) {
	if s == nil {
		return
	}
	if at.IsZero() {
		at = time.Now()
	}
	s.mu.Lock()
	done := s.pb
	s.pb = nil
	s.mu.Unlock()
	if done == nil {
		return
	}
	done.EndUnixNano = uint64(at.UnixNano())
	// The last use of s: a reused span may go back to the pool at once.
	s.rec.finish(s, done)
}

// Edit runs f on the span's record unless it has ended.
func (s *Span) Edit(f func(*pb.Span)) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pb != nil {
		f(s.pb)
	}
}

// Recording reports whether the span has not ended.
func (s *Span) Recording() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pb != nil
}

// SetAttributes adds attributes.
func (s *Span) SetAttributes(attrs ...*pb.SpanAttribute) {
	s.Edit(func(p *pb.Span) { p.Attributes = append(p.Attributes, attrs...) })
}

// SetString adds a string attribute; the span's first ones take no
// allocation of their own.
func (s *Span) SetString(key, value string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pb
	if p == nil {
		return
	}
	if s.inline == inlineAttrs {
		p.Attributes = append(p.Attributes, String(key, value))
		return
	}
	i := s.inline
	s.inline++
	s.values[i].StringValue = value
	a := &s.attrs[i]
	a.Key, a.Value = key, &s.values[i]
	p.Attributes = append(p.Attributes, a)
}

// SetStatus sets the span's status as OpenTelemetry's SDK does: Ok is
// final, an error may replace unset, and only an error keeps a message.
func (s *Span) SetStatus(code int32, msg string) {
	s.Edit(func(p *pb.Span) {
		if p.StatusCode == StatusOK || code < p.StatusCode {
			return
		}
		p.StatusCode = code
		p.StatusMessage = ""
		if code == StatusError {
			p.StatusMessage = msg
		}
	})
}

// String is a string attribute.
func String(key, value string) *pb.SpanAttribute {
	return &pb.SpanAttribute{Key: key, Value: &pb.SpanAttribute_StringValue{StringValue: value}}
}

// Int is an integer attribute.
func Int(key string, value int64) *pb.SpanAttribute {
	return &pb.SpanAttribute{Key: key, Value: &pb.SpanAttribute_IntValue{IntValue: value}}
}

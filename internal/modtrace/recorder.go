package modtrace

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// MaxBuffered is how many finished spans a Recorder keeps before the next
// RPC takes them; spans past it are dropped and counted.
const MaxBuffered = 4096

// Recorder is a TracerProvider that records the spans of sampled traces
// and keeps them, finished, until [Recorder.Take].
type Recorder struct {
	embedded.TracerProvider
	mu      sync.Mutex
	done    []*pb.Span
	dropped int
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{} }

// Tracer implements trace.TracerProvider.
func (r *Recorder) Tracer(name string, _ ...trace.TracerOption) trace.Tracer {
	return &tracer{r: r, scope: name}
}

// Take returns the finished spans and forgets them, and how many were
// dropped since the last Take.
func (r *Recorder) Take() (spans []*pb.Span, dropped int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	spans, dropped = r.done, r.dropped
	r.done, r.dropped = nil, 0
	return spans, dropped
}

func (r *Recorder) finish(s *pb.Span) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.done) >= MaxBuffered {
		r.dropped++
		return
	}
	r.done = append(r.done, s)
}

type tracer struct {
	embedded.Tracer
	r     *Recorder
	scope string
}

// Start implements trace.Tracer: a span is recorded only under a sampled
// parent, the call's.
func (t *tracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	parent := trace.SpanContextFromContext(ctx)
	if !parent.IsSampled() {
		return ctx, trace.SpanFromContext(ctx)
	}
	cfg := trace.NewSpanStartConfig(opts...)
	if cfg.NewRoot() {
		return ctx, trace.SpanFromContext(ctx)
	}
	var id trace.SpanID
	binary.LittleEndian.PutUint64(id[:], rand.Uint64()|1)
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: parent.TraceID(), SpanID: id, TraceFlags: parent.TraceFlags(), TraceState: parent.TraceState(),
	})
	start := cfg.Timestamp()
	if start.IsZero() {
		start = time.Now()
	}
	pid := parent.SpanID()
	tid := sc.TraceID()
	s := &span{r: t.r, sc: sc, pb: &pb.Span{
		TraceId: tid[:], SpanId: id[:], ParentSpanId: pid[:], Name: name, Kind: int32(cfg.SpanKind()),
		StartUnixNano: uint64(start.UnixNano()), TraceState: parent.TraceState().String(), Scope: t.scope,
	}}
	s.pb.Attributes = appendAttrs(nil, cfg.Attributes())
	return trace.ContextWithSpan(ctx, s), s
}

type span struct {
	embedded.Span
	r  *Recorder
	sc trace.SpanContext
	mu sync.Mutex
	pb *pb.Span // nil once ended
}

func (s *span) End(opts ...trace.SpanEndOption) {
	cfg := trace.NewSpanEndConfig(opts...)
	end := cfg.Timestamp()
	if end.IsZero() {
		end = time.Now()
	}
	s.mu.Lock()
	done := s.pb
	s.pb = nil
	s.mu.Unlock()
	if done == nil {
		return
	}
	done.EndUnixNano = uint64(end.UnixNano())
	s.r.finish(done)
}

// edit runs f on the span's record unless it has ended.
func (s *span) edit(f func(*pb.Span)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pb != nil {
		f(s.pb)
	}
}

func (s *span) AddEvent(name string, opts ...trace.EventOption) {
	cfg := trace.NewEventConfig(opts...)
	at := cfg.Timestamp()
	if at.IsZero() {
		at = time.Now()
	}
	s.edit(func(p *pb.Span) {
		p.Events = append(p.Events, &pb.SpanEvent{Name: name, TimeUnixNano: uint64(at.UnixNano()), Attributes: appendAttrs(nil, cfg.Attributes())})
	})
}

func (s *span) AddLink(trace.Link) {}

func (s *span) IsRecording() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pb != nil
}

func (s *span) RecordError(err error, opts ...trace.EventOption) {
	if err == nil {
		return
	}
	opts = append(opts, trace.WithAttributes(
		attribute.String("exception.type", fmt.Sprintf("%T", err)),
		attribute.String("exception.message", err.Error()),
	))
	s.AddEvent("exception", opts...)
}

func (s *span) SpanContext() trace.SpanContext { return s.sc }

func (s *span) SetStatus(code codes.Code, description string) {
	s.edit(func(p *pb.Span) {
		// As the SDK: Ok is final, and only an error has a description.
		if codes.Code(p.StatusCode) == codes.Ok || code < codes.Code(p.StatusCode) {
			return
		}
		p.StatusCode = int32(code)
		p.StatusMessage = ""
		if code == codes.Error {
			p.StatusMessage = description
		}
	})
}

func (s *span) SetName(name string) { s.edit(func(p *pb.Span) { p.Name = name }) }

func (s *span) SetAttributes(kv ...attribute.KeyValue) {
	s.edit(func(p *pb.Span) { p.Attributes = appendAttrs(p.Attributes, kv) })
}

func (s *span) TracerProvider() trace.TracerProvider { return s.r }

// appendAttrs appends kvs in their wire form.
func appendAttrs(to []*pb.SpanAttribute, kvs []attribute.KeyValue) []*pb.SpanAttribute {
	for _, kv := range kvs {
		a := &pb.SpanAttribute{Key: string(kv.Key)}
		switch kv.Value.Type() {
		case attribute.BOOL:
			a.Value = &pb.SpanAttribute_BoolValue{BoolValue: kv.Value.AsBool()}
		case attribute.INT64:
			a.Value = &pb.SpanAttribute_IntValue{IntValue: kv.Value.AsInt64()}
		case attribute.FLOAT64:
			a.Value = &pb.SpanAttribute_DoubleValue{DoubleValue: kv.Value.AsFloat64()}
		default:
			a.Value = &pb.SpanAttribute_StringValue{StringValue: kv.Value.Emit()}
		}
		to = append(to, a)
	}
	return to
}

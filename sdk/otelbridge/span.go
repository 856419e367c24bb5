package otelbridge

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"

	"github.com/modkit/modkit/internal/modtrace"
	"github.com/modkit/modkit/internal/protocol/pb"
)

// provider is the mod's TracerProvider: its spans are recorded by the
// recorder of the call they run under.
type provider struct{ embedded.TracerProvider }

func (provider) Tracer(name string, _ ...trace.TracerOption) trace.Tracer {
	return tracer{scope: name}
}

type tracer struct {
	embedded.Tracer
	scope string
}

// Start implements trace.Tracer: a span is recorded only under a sampled
// parent in a call's context.
func (t tracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	parent := trace.SpanContextFromContext(ctx)
	_, rec, ok := modtrace.FromContext(ctx)
	if !ok || !parent.IsSampled() {
		return ctx, trace.SpanFromContext(ctx)
	}
	cfg := trace.NewSpanStartConfig(opts...)
	if cfg.NewRoot() {
		return ctx, trace.SpanFromContext(ctx)
	}
	start := cfg.Timestamp()
	if start.IsZero() {
		start = time.Now()
	}
	ms := modtrace.StartAt(rec, fromOtel(ctx, parent), t.scope, name, int32(cfg.SpanKind()), start, appendAttrs(nil, cfg.Attributes()))
	msc := ms.Context()
	s := &span{s: ms, sc: trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: msc.TraceID, SpanID: msc.SpanID, TraceFlags: parent.TraceFlags(), TraceState: parent.TraceState(),
	})}
	return trace.ContextWithSpan(modtrace.WithoutBridge(ctx, msc, rec), s), s
}

// span is an OpenTelemetry span over the mod runtime's.
type span struct {
	embedded.Span
	s  *modtrace.Span
	sc trace.SpanContext
}

func (s *span) End(opts ...trace.SpanEndOption) {
	cfg := trace.NewSpanEndConfig(opts...)
	s.s.End(cfg.Timestamp())
}

func (s *span) AddEvent(name string, opts ...trace.EventOption) {
	cfg := trace.NewEventConfig(opts...)
	at := cfg.Timestamp()
	if at.IsZero() {
		at = time.Now()
	}
	e := &pb.SpanEvent{Name: name, TimeUnixNano: uint64(at.UnixNano()), Attributes: appendAttrs(nil, cfg.Attributes())}
	s.s.Edit(func(p *pb.Span) { p.Events = append(p.Events, e) })
}

func (s *span) AddLink(trace.Link) {}

func (s *span) IsRecording() bool { return s.s.Recording() }

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
	s.s.SetStatus(int32(code), description)
}

func (s *span) SetName(name string) { s.s.Edit(func(p *pb.Span) { p.Name = name }) }

func (s *span) SetAttributes(kv ...attribute.KeyValue) {
	s.s.SetAttributes(appendAttrs(nil, kv)...)
}

func (s *span) TracerProvider() trace.TracerProvider { return provider{} }

// appendAttrs appends kvs in their wire form; a slice travels as its
// string.
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

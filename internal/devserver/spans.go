package devserver

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// maxTraces is how many calls' spans Spans keeps; the oldest go first.
const maxTraces = maxCalls

// Spans keeps the spans of the workbench's calls, by trace, for their
// timelines. It is a span processor: pass it to the process's tracer
// provider (modhost dev does, through internal/telemetry) and to Options.
type Spans struct {
	mu     sync.Mutex
	traces map[trace.TraceID][]sdktrace.ReadOnlySpan
	order  []trace.TraceID
}

// NewSpans returns an empty span store.
func NewSpans() *Spans { return &Spans{traces: map[trace.TraceID][]sdktrace.ReadOnlySpan{}} }

// OnStart implements sdktrace.SpanProcessor.
func (s *Spans) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd keeps the span when its trace is one of a workbench call's.
func (s *Spans) OnEnd(span sdktrace.ReadOnlySpan) {
	id := span.SpanContext().TraceID()
	s.mu.Lock()
	defer s.mu.Unlock()
	if spans, ok := s.traces[id]; ok {
		s.traces[id] = append(spans, span)
	}
}

// ForceFlush implements sdktrace.SpanProcessor.
func (s *Spans) ForceFlush(context.Context) error { return nil }

// Shutdown implements sdktrace.SpanProcessor.
func (s *Spans) Shutdown(context.Context) error { return nil }

// watch starts keeping the spans of trace id.
func (s *Spans) watch(id trace.TraceID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.traces[id] = nil
	s.order = append(s.order, id)
	for len(s.order) > maxTraces {
		delete(s.traces, s.order[0])
		s.order = s.order[1:]
	}
}

// spanJSON is one bar of a call's timeline.
type spanJSON struct {
	Name string `json:"name"`
	// Lane says whose work it is: host, mod, hooks, approval, question,
	// build or start.
	Lane string `json:"lane"`
	// Depth is how many ancestors it has in the call's trace.
	Depth int `json:"depth"`
	// StartMS is when it started, in milliseconds after the call's start;
	// DurationMS how long it took.
	StartMS    float64 `json:"startMs"`
	DurationMS float64 `json:"durationMs"`
	Error      string  `json:"error,omitempty"`
}

// timeline returns the spans of trace id in the order they started.
func (s *Spans) timeline(id trace.TraceID) []spanJSON {
	s.mu.Lock()
	spans := slices.Clone(s.traces[id])
	s.mu.Unlock()
	out := []spanJSON{}
	if len(spans) == 0 {
		return out
	}
	slices.SortStableFunc(spans, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	parent := map[trace.SpanID]trace.SpanID{}
	for _, sp := range spans {
		parent[sp.SpanContext().SpanID()] = sp.Parent().SpanID()
	}
	t0 := spans[0].StartTime()
	for _, sp := range spans {
		depth := 0
		for p, ok := parent[sp.SpanContext().SpanID()]; ok && depth < 64; p, ok = parent[p] {
			if _, known := parent[p]; !known {
				break
			}
			depth++
		}
		j := spanJSON{Name: sp.Name(), Lane: lane(sp), Depth: depth,
			StartMS:    float64(sp.StartTime().Sub(t0).Microseconds()) / 1000,
			DurationMS: float64(sp.EndTime().Sub(sp.StartTime()).Microseconds()) / 1000}
		if sp.Status().Code == 1 { // codes.Error
			j.Error = sp.Status().Description
		}
		out = append(out, j)
	}
	return out
}

// lane says whose work a span is.
func lane(sp sdktrace.ReadOnlySpan) string {
	var mod bool
	var step string
	for _, kv := range sp.Attributes() {
		switch kv.Key {
		case "modkit.mod":
			mod = true
		case "modkit.step":
			step = kv.Value.AsString()
		}
	}
	switch {
	case mod && strings.HasPrefix(sp.Name(), "run_hooks"):
		return "hooks"
	case mod:
		return "mod"
	case step == "mod start":
		return "start"
	case step == "hooks", step == "approval", step == "question", step == "build":
		return step
	}
	return "host"
}

// traceCall starts the span of a workbench call, the root of its trace,
// when the server keeps spans.
func (s *Server) traceCall(ctx context.Context, c *call) (context.Context, func()) {
	if s.opts.Spans == nil {
		return ctx, func() {}
	}
	ctx, span := otel.Tracer("github.com/modkit/modkit/devserver").Start(ctx, "workbench call "+c.tool, trace.WithNewRoot())
	if !span.SpanContext().IsSampled() {
		span.End()
		return ctx, func() {}
	}
	c.mu.Lock()
	c.trace = span.SpanContext().TraceID()
	c.mu.Unlock()
	s.opts.Spans.watch(span.SpanContext().TraceID())
	return ctx, func() { span.End() }
}

// callSpans answers a call's timeline: its spans, host and mod, in the
// order they started; none when the server keeps no spans.
func (s *Server) callSpans(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	c.mu.Lock()
	id := c.trace
	c.mu.Unlock()
	if s.opts.Spans == nil || !id.IsValid() {
		writeJSON(w, http.StatusOK, []spanJSON{})
		return
	}
	writeJSON(w, http.StatusOK, s.opts.Spans.timeline(id))
}

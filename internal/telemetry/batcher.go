package telemetry

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// batcher is a span processor that queues ended spans and exports them
// from one goroutine every schedule delay, or sooner when a batch is full.
// Unlike the SDK's batch processor it wakes no goroutine per span: a call
// ends a handful of spans, and on a busy machine each wake-up costs more
// than the span. It reads the SDK's OTEL_BSP_SCHEDULE_DELAY,
// OTEL_BSP_MAX_QUEUE_SIZE and OTEL_BSP_MAX_EXPORT_BATCH_SIZE; a span past
// a full queue is dropped.
type batcher struct {
	exp      sdktrace.SpanExporter
	conv     *modConverter // decodes the mods' batches
	delay    time.Duration
	maxQueue int
	maxBatch int

	mu        sync.Mutex
	queue     []sdktrace.ReadOnlySpan
	mods      []modBatch    // mods' spans, replayed at the next export
	calls     []*callRecord // the host's calls' spans, made at the next export
	spare     []*callRecord // calls' array, back from the last export
	spareMods []modBatch    // mods' array, back from the last export
	// spans is the array of the spans an export hands on, the exporting
	// goroutine's: an exporter keeps no batch it is given, as the SDK's
	// batch processor, which reuses its own, expects.
	spans   []sdktrace.ReadOnlySpan
	full    chan struct{} // a batch is ready
	flushes chan chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

func newBatcher(exp sdktrace.SpanExporter, conv *modConverter, getenv func(string) string) *batcher {
	b := &batcher{
		exp:      exp,
		conv:     conv,
		delay:    envMillis(getenv, "OTEL_BSP_SCHEDULE_DELAY", 5000),
		maxQueue: envInt(getenv, "OTEL_BSP_MAX_QUEUE_SIZE", 2048),
		maxBatch: envInt(getenv, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512),
		full:     make(chan struct{}, 1),
		flushes:  make(chan chan struct{}),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	b.maxBatch = min(b.maxBatch, b.maxQueue)
	go b.run()
	return b
}

func envInt(getenv func(string) string, name string, def int) int {
	if n, err := strconv.Atoi(getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func envMillis(getenv func(string) string, name string, def int) time.Duration {
	return time.Duration(envInt(getenv, name, def)) * time.Millisecond
}

func (b *batcher) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

func (b *batcher) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	b.enqueue(func() { b.queue = append(b.queue, s) })
}

// laterCall queues a call's span, to be made at the next export; a span
// past a full queue is dropped.
func (b *batcher) laterCall(r *callRecord) {
	b.enqueue(func() { b.calls = append(b.calls, r) })
}

// enqueue queues a span with add, under the lock, unless the queue is
// full, and starts an export once a batch is ready.
func (b *batcher) enqueue(add func()) {
	b.mu.Lock()
	if len(b.queue)+len(b.calls) >= b.maxQueue {
		b.mu.Unlock()
		return
	}
	add()
	ready := len(b.queue)+len(b.calls) == b.maxBatch
	b.mu.Unlock()
	if ready {
		b.ready()
	}
}

// ready wakes the exporting goroutine: a batch is full.
func (b *batcher) ready() {
	select {
	case b.full <- struct{}{}:
	default:
	}
}

func (b *batcher) run() {
	defer close(b.done)
	t := time.NewTicker(b.delay)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-b.full:
		case ack := <-b.flushes:
			b.export()
			close(ack)
			continue
		case <-b.stop:
			b.export()
			return
		}
		b.export()
	}
}

// modBatch is a mod's encoded SpanBatch, as its trailer brought it.
type modBatch struct{ mod, spans string }

// later keeps a mod's spans to decode at the next export, unless as many
// batches as the queue holds spans wait already.
func (b *batcher) later(mod, spans string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.mods) >= b.maxQueue {
		return false
	}
	b.mods = append(b.mods, modBatch{mod, spans})
	return true
}

// export makes the calls' spans and decodes the mods', then exports them
// and everything queued, in batches.
func (b *batcher) export() {
	b.mu.Lock()
	mods, calls, queue := b.mods, b.calls, b.queue
	b.mods, b.calls, b.queue = b.spareMods, b.spare, nil
	b.spare, b.spareMods = nil, nil
	b.mu.Unlock()
	defer b.giveBack(calls, mods)
	var spans []sdktrace.ReadOnlySpan
	if len(mods) > 0 || len(calls) > 0 {
		spans = slices.Grow(b.spans[:0], len(queue)+len(calls)+2*len(mods))
		slab := newExportSlab(calls, len(mods))
		for i := range calls {
			spans = append(spans, calls[i].finish(b.conv, slab))
		}
		for _, m := range mods {
			spans = b.conv.appendSpansFrom(spans, slab, m.mod, m.spans)
		}
		spans = append(spans, queue...)
		defer func(all []sdktrace.ReadOnlySpan) { clear(all); b.spans = all[:0] }(spans)
	} else {
		spans = queue
	}
	for len(spans) > 0 {
		n := min(len(spans), b.maxBatch)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		b.exp.ExportSpans(ctx, spans[:n]) // a failed export is the exporter's to report
		cancel()
		spans = spans[n:]
	}
}

// giveBack keeps the arrays of calls and mods' batches for the next
// export's: a busy host queues its calls' and mods' spans without growing
// new ones every time.
func (b *batcher) giveBack(calls []*callRecord, mods []modBatch) {
	clear(calls)
	clear(mods)
	b.mu.Lock()
	b.spare, b.spareMods = calls[:0], mods[:0]
	b.mu.Unlock()
}

func (b *batcher) ForceFlush(ctx context.Context) error {
	ack := make(chan struct{})
	select {
	case b.flushes <- ack:
	case <-b.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-ack:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *batcher) Shutdown(ctx context.Context) error {
	b.once.Do(func() { close(b.stop) })
	select {
	case <-b.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return b.exp.Shutdown(ctx)
}

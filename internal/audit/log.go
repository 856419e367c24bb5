package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Defaults of [Options].
const (
	DefaultQueue = 4096
	DefaultWait  = 100 * time.Millisecond
)

// Options configure a [Log]. A nil *Options means defaults.
type Options struct {
	// Replica names this server in every record. Default: none.
	Replica string
	// Arguments puts the arguments' values in the records, besides their
	// SHA-256. Default: the hash only.
	Arguments bool
	// Queue is how many records may wait for the writer. Default
	// DefaultQueue.
	Queue int
	// Wait is how long a request waits for room in a full queue before
	// its record is dropped. Default DefaultWait.
	Wait time.Duration
	// Errors is told when records are dropped. Default: standard error.
	Errors io.Writer
}

// Log writes records as JSON lines. Create it with [New] or [Open].
type Log struct {
	opts   Options
	w      io.Writer
	closer io.Closer
	queue  chan []byte
	done   chan struct{}

	// sendMu is held to send on queue (read) and to close it (write).
	sendMu sync.RWMutex
	closed bool

	mu      sync.Mutex
	dropped int // records dropped in this episode, not yet reported
	total   int // records dropped in all
}

// New returns a log that writes to w.
func New(w io.Writer, opts *Options) *Log {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	if o.Errors == nil {
		o.Errors = os.Stderr
	}
	l := &Log{opts: o, w: w, queue: make(chan []byte, o.Queue), done: make(chan struct{})}
	go l.run()
	return l
}

// Open returns a log that appends to the file name, created with mode
// 0600 when it does not exist.
func Open(name string, opts *Options) (*Log, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	l := New(f, opts)
	l.closer = f
	return l, nil
}

// Arguments reports whether records carry the arguments' values.
func (l *Log) Arguments() bool { return l != nil && l.opts.Arguments }

// Write queues r, with the log's replica, to be written. It waits at
// most Options.Wait for room, and drops r past that. A nil *Log writes
// nothing.
func (l *Log) Write(r *Record) {
	if l == nil {
		return
	}
	if r.Replica == "" {
		r.Replica = l.opts.Replica
	}
	line, err := json.Marshal(r)
	if err != nil {
		l.drop(fmt.Errorf("encode: %w", err))
		return
	}
	line = append(line, '\n')
	l.sendMu.RLock()
	defer l.sendMu.RUnlock()
	if l.closed {
		l.drop(fmt.Errorf("the log is closed"))
		return
	}
	select {
	case l.queue <- line:
		return
	default:
	}
	t := time.NewTimer(l.opts.Wait)
	defer t.Stop()
	select {
	case l.queue <- line:
	case <-t.C:
		l.drop(fmt.Errorf("the writer is %v behind", l.opts.Wait))
	}
}

// run writes the queued lines until Close.
func (l *Log) run() {
	defer close(l.done)
	for line := range l.queue {
		if _, err := l.w.Write(line); err != nil {
			l.drop(err)
			continue
		}
		l.recovered()
	}
}

// drop counts a dropped record, and says so at the first of an episode.
func (l *Log) drop(why error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dropped == 0 {
		fmt.Fprintf(l.opts.Errors, "audit: dropping records: %v\n", why)
	}
	l.dropped++
	l.total++
}

// recovered reports how many records an episode that ended dropped.
func (l *Log) recovered() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dropped > 0 {
		fmt.Fprintf(l.opts.Errors, "audit: writing again, %d records dropped\n", l.dropped)
		l.dropped = 0
	}
}

// Dropped returns how many records were dropped so far.
func (l *Log) Dropped() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

// closeWait is how long Close waits for the queued records to be written.
var closeWait = 5 * time.Second

// Close writes the queued records, waiting at most five seconds, and
// closes the file Open opened. Records written after are dropped.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.sendMu.Lock()
	if l.closed {
		l.sendMu.Unlock()
		return nil
	}
	l.closed = true
	close(l.queue)
	l.sendMu.Unlock()
	t := time.NewTimer(closeWait)
	defer t.Stop()
	select {
	case <-l.done:
	case <-t.C:
		// A writer stuck on a hung volume must not keep the server from
		// stopping.
		return fmt.Errorf("audit: the writer has not finished after %v: %d records may be lost", closeWait, len(l.queue)+1)
	}
	if n := l.Dropped(); n > 0 {
		fmt.Fprintf(l.opts.Errors, "audit: %d records dropped in all\n", n)
	}
	if l.closer != nil {
		return l.closer.Close()
	}
	return nil
}

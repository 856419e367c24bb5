package modproc

import (
	"bytes"
	"log/slog"
	"runtime"
	"strings"
	"sync"
)

// idleStarters holds goroutines locked to their OS threads, waiting for a
// start. Linux ties Pdeathsig to the thread that forked the child, not to
// the process (golang/go#27505): a mod started from a thread that later
// exits would be killed with it. So mods are started only from threads that
// live as long as the host; one per concurrent start, reused.
var idleStarters = make(chan chan func(), 64)

// OnStarterThread runs f on a starter thread.
func OnStarterThread(f func()) {
	var ch chan func()
	select {
	case ch = <-idleStarters:
	default:
		ch = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread must live on
			for f := range ch {
				f()
				select {
				case idleStarters <- ch:
				default: // enough idle starters: this one just waits
				}
			}
		}()
	}
	done := make(chan struct{})
	ch <- func() {
		defer close(done)
		f()
	}
	<-done
}

// Tail receives the mod's raw stderr lines and keeps the panic line,
// if any, and the last lines, for crash and start failure messages. Log
// records (JSON lines go-plugin forwards to the host's log) are not kept:
// the tail shows what the process printed.
type Tail struct {
	mu    sync.Mutex
	panic string
	lines []string // the last tailLines lines, oldest first
	buf   []byte
}

const (
	tailLines   = 8
	tailLineMax = 300
)

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			break
		}
		t.add(string(t.buf[:i]))
		t.buf = t.buf[i+1:]
	}
	if len(t.buf) > 64<<10 {
		t.buf = t.buf[:0]
	}
	return len(p), nil
}

func (t *Tail) add(line string) {
	line = strings.TrimRight(line, "\r")
	if strings.TrimSpace(line) == "" || strings.HasPrefix(line, `{"@`) {
		return
	}
	if len(line) > tailLineMax {
		line = line[:tailLineMax] + "…"
	}
	if t.panic == "" && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")) {
		t.panic = line
		t.lines = t.lines[:0] // what follows a panic matters most
	}
	if len(t.lines) == tailLines {
		if t.panic != "" && t.lines[0] == t.panic {
			return // keep the panic and the lines right after it
		}
		t.lines = append(t.lines[:0], t.lines[1:]...)
	}
	t.lines = append(t.lines, line)
}

// PanicLine is the first line of a panic or fatal error, or "".
func (t *Tail) PanicLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.panic
}

// Last returns the last lines kept, with a partial last line.
func (t *Tail) Last() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := append([]string(nil), t.lines...)
	if rest := strings.TrimSpace(string(t.buf)); rest != "" && len(lines) < tailLines {
		lines = append(lines, rest)
	}
	return lines
}

// LineLogger logs what a mod writes to its os.Stdout or os.Stderr after
// serving started, one record per line.
type LineLogger struct {
	log    *slog.Logger
	stream string
	calls  *Calls // tags a line with the call when only one runs
	mu     sync.Mutex
	buf    []byte
}

// NewLineLogger returns a LineLogger logging the lines of stream
// ("stdout" or "stderr") to log, tagged by calls.
func NewLineLogger(log *slog.Logger, stream string, calls *Calls) *LineLogger {
	return &LineLogger{log: log, stream: stream, calls: calls}
}

func (l *LineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.logLine(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
	if len(l.buf) > 64<<10 {
		l.logLine(string(l.buf))
		l.buf = l.buf[:0]
	}
	return len(p), nil
}

func (l *LineLogger) logLine(line string) {
	if key, id := l.calls.Tag(); key != "" {
		l.log.Info(line, "stream", l.stream, key, id)
		return
	}
	l.log.Info(line, "stream", l.stream)
}

package audit_test

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/audit"
)

// syncBuffer is a bytes.Buffer safe for the writer goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestLogWritesLines(t *testing.T) {
	var out syncBuffer
	l := audit.New(&out, &audit.Options{Replica: "r1", Arguments: true})
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			r := &audit.Record{Time: time.Now(), Principal: audit.Principal{Sub: "alice", ClientID: "app"}, Transport: audit.HTTP, Method: "tools/call", Tool: "echo", Outcome: audit.Completed}
			r.SetArguments([]byte(`{"text":"hi"}`), l.Arguments())
			r.Finish()
			l.Write(r)
		})
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := audit.ReadRecords(strings.NewReader(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		// printf '{"text":"hi"}' | sha256sum
		if got, want := r.ArgumentsSHA256, "e7b995efa755c5ff3b84d2188b58cb4ae916a59470eb3761df8a814f11763500"; got != want {
			t.Errorf("arguments_sha256: got %s, want %s", got, want)
		}
		if got, want := string(r.Arguments), `{"text":"hi"}`; got != want {
			t.Errorf("arguments: got %s, want %s", got, want)
		}
		if r.Replica != "r1" || r.Principal.Sub != "alice" || r.Principal.ClientID != "app" || r.Outcome != audit.Completed {
			t.Errorf("record: got %+v", r)
		}
	}
	if n := len(recs); n != 50 {
		t.Errorf("got %d lines, want 50", n)
	}
}

// stuckWriter blocks every write until released, then fails or succeeds.
type stuckWriter struct {
	release chan struct{}
	fail    bool
}

func (s *stuckWriter) Write(p []byte) (int, error) {
	<-s.release
	if s.fail {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestLogDropsWhenBehind(t *testing.T) {
	w := &stuckWriter{release: make(chan struct{})}
	var errs syncBuffer
	l := audit.New(w, &audit.Options{Queue: 1, Wait: time.Millisecond, Errors: &errs})
	// One record is in the writer, one in the queue: the rest wait a
	// millisecond each and are dropped.
	for range 5 {
		l.Write(&audit.Record{Method: "tools/call"})
	}
	if got := l.Dropped(); got < 3 {
		t.Errorf("dropped: got %d, want at least 3", got)
	}
	close(w.release)
	l.Close()
	if got := strings.Count(errs.String(), "audit: dropping records"); got != 1 {
		t.Errorf("drop messages: got %d, want 1 in %q", got, errs.String())
	}
	if !strings.Contains(errs.String(), "records dropped in all") {
		t.Errorf("errors: got %q, want the total at Close", errs.String())
	}
}

func TestLogFailedWrite(t *testing.T) {
	w := &stuckWriter{release: make(chan struct{}), fail: true}
	close(w.release)
	var errs syncBuffer
	l := audit.New(w, &audit.Options{Errors: &errs})
	l.Write(&audit.Record{Method: "tools/call"})
	l.Write(&audit.Record{Method: "tools/call"})
	l.Close()
	if got := l.Dropped(); got != 2 {
		t.Errorf("dropped: got %d, want 2", got)
	}
	if got := errs.String(); !strings.Contains(got, "audit: dropping records: disk full") {
		t.Errorf("errors: got %q, want the write's error", got)
	}
	l.Write(&audit.Record{Method: "tools/call"}) // after Close: dropped, no panic
}

func TestSetArguments(t *testing.T) {
	var r audit.Record
	r.SetArguments([]byte(`{"a":1}`), false)
	// printf '{"a":1}' | sha256sum
	if got, want := r.ArgumentsSHA256, "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"; got != want {
		t.Errorf("sha256: got %s, want %s", got, want)
	}
	if r.Arguments != nil {
		t.Errorf("arguments: got %s, want none without Options.Arguments", r.Arguments)
	}
	var none audit.Record
	none.SetArguments(nil, true)
	if none.ArgumentsSHA256 != "" {
		t.Errorf("sha256 of no arguments: got %s, want empty", none.ArgumentsSHA256)
	}
}

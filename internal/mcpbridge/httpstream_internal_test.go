package mcpbridge

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// flushCounter is a ResponseWriter that counts flushes and says when one
// happens.
type flushCounter struct {
	*httptest.ResponseRecorder
	flushes chan struct{}
}

func (f *flushCounter) Flush() { f.flushes <- struct{}{} }

func newFlushCounter() *flushCounter {
	return &flushCounter{ResponseRecorder: httptest.NewRecorder(), flushes: make(chan struct{}, 10)}
}

const (
	testPrime  = "event: prime\nid: s_0\ndata: \n\n"
	testAnswer = "event: message\nid: s_1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	testNotice = "event: message\nid: s_1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n"
)

// A call answered at once reaches its client in one write: neither the
// priming event nor the answer is flushed before the handler returns.
func TestPrimingRetryHoldsFlushes(t *testing.T) {
	f := newFlushCounter()
	// A held flush that fires on a slow machine is not what this test
	// checks (TestPrimingRetryFlushes does): hold for longer than it runs.
	p := &primingRetry{ResponseWriter: f, hold: time.Hour}
	for _, event := range []string{testPrime, testAnswer} {
		p.Write([]byte(event))
		http.NewResponseController(p).Flush()
	}
	p.end()
	if n := len(f.flushes); n != 0 {
		t.Errorf("got %d flushes, want 0", n)
	}
	want := "event: prime\nid: s_0\nretry: 1000\ndata: \n\n" + testAnswer
	if got := f.Body.String(); got != want {
		t.Errorf("got body %q, want %q", got, want)
	}
}

// A notification is flushed at once, with the priming event held before
// it; a held flush happens anyway when the call takes longer.
func TestPrimingRetryFlushes(t *testing.T) {
	f := newFlushCounter()
	// Held for an hour: a busy machine must not let the held flush pass
	// before the notification's.
	p := &primingRetry{ResponseWriter: f, hold: time.Hour}
	p.Write([]byte(testPrime))
	p.Flush()
	p.Write([]byte(testNotice))
	p.Flush()
	if n := len(f.flushes); n != 1 {
		t.Fatalf("got %d flushes after a notification, want 1", n)
	}
	<-f.flushes

	f = newFlushCounter()
	p = &primingRetry{ResponseWriter: f}
	p.Write([]byte(testPrime))
	p.Flush()
	<-f.flushes // heldFlush passed
	p.end()
}

package audit

import (
	"io"
	"strings"
	"testing"
	"time"
)

// hungWriter never returns from Write.
type hungWriter struct{ hung chan struct{} }

func (h hungWriter) Write([]byte) (int, error) { <-h.hung; return 0, io.ErrClosedPipe }

func TestCloseDoesNotWaitForAHungWriter(t *testing.T) {
	defer func(d time.Duration) { closeWait = d }(closeWait)
	closeWait = 50 * time.Millisecond
	w := hungWriter{make(chan struct{})}
	defer close(w.hung)
	l := New(w, &Options{Errors: io.Discard})
	l.Write(&Record{Method: "tools/call"})
	err := l.Close()
	if err == nil || !strings.Contains(err.Error(), "records may be lost") {
		t.Errorf("Close: got %v, want an error saying records may be lost", err)
	}
}

package mcpbridge

import (
	"bufio"
	"errors"
	"os"
	"testing"
)

// TestServeStdioHangupAtEOF closes the input, then the client's end of the
// output, while a call runs that would run for ever: the session sees the
// client gone without writing, cancels the call and ends.
func TestServeStdioHangupAtEOF(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	srv, err := NewServer(waitBackend(started, cancelled), nil)
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outW.Close()
	ended := make(chan struct{})
	s := startStdio(t, srv, outW, &StdioOptions{inputEnded: func() { close(ended) }})
	s.out = bufio.NewScanner(outR)
	s.send(initializeLine, initializedLine, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	s.next()
	<-started
	s.in.Close()
	<-ended
	outR.Close()
	<-cancelled
	if err := <-s.done; !errors.Is(err, errHungUp) {
		t.Errorf("ServeStdio: got %v, want %v", err, errHungUp)
	}
}

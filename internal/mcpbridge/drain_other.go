//go:build !linux

package mcpbridge

import (
	"syscall"
	"time"
)

// outputDrainer returns a function that gives the reader of conn, a pipe
// or a socket, a moment to read what was written: without a portable way to
// ask, it waits a millisecond.
func outputDrainer(syscall.Conn, bool) func() {
	return func() { time.Sleep(time.Millisecond) }
}

// closedCheck cannot tell, portably, whether the reader of conn has closed
// its end: a write fails then.
func closedCheck(syscall.Conn, bool) func() bool { return nil }

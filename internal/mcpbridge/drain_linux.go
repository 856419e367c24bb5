package mcpbridge

import (
	"syscall"
	"time"
	"unsafe"
)

// outputDrainer returns a function that waits, for at most maxDrainWait,
// until the reader of conn, a pipe or a Unix socket (as Node.js gives a
// child's stdout), has read everything written to it.
func outputDrainer(conn syscall.Conn, socket bool) func() {
	raw, err := conn.SyscallConn()
	if err != nil {
		return nil
	}
	// Unread bytes: in a pipe, FIONREAD (TIOCINQ) on either end; for a
	// socket, SIOCOUTQ (TIOCOUTQ): what the peer has not read yet.
	req := uintptr(syscall.TIOCINQ)
	if socket {
		req = syscall.TIOCOUTQ
	}
	unread := func() int {
		n := int32(0)
		raw.Control(func(fd uintptr) {
			if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(unsafe.Pointer(&n))); e != 0 {
				n = 0
			}
		})
		return int(n)
	}
	return func() {
		for deadline := time.Now().Add(maxDrainWait); unread() > 0 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Microsecond)
		}
		// Read is not yet handled: give the client a moment to handle it
		// before it can read more.
		time.Sleep(drainSettle)
	}
}

// Poll flags, from poll.h.
const (
	pollErr   = 0x8
	pollHup   = 0x10
	pollRdHup = 0x2000
)

// closedCheck returns a function that reports whether the reader of conn,
// a pipe or a socket, has closed its end, without blocking.
func closedCheck(conn syscall.Conn, socket bool) func() bool {
	raw, err := conn.SyscallConn()
	if err != nil {
		return nil
	}
	events := int16(0) // a pipe's writer gets POLLERR once the reader is gone
	if socket {
		events = pollRdHup
	}
	return func() bool {
		closed := false
		raw.Control(func(fd uintptr) {
			pfd := struct {
				fd              int32
				events, revents int16
			}{fd: int32(fd), events: events}
			var zero syscall.Timespec
			n, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
			closed = e == 0 && n == 1 && pfd.revents&(pollErr|pollHup|pollRdHup) != 0
		})
		return closed
	}
}

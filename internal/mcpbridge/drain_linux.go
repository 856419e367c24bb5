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

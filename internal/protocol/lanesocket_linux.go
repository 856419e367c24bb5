package protocol

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// laneSocket is a call lane end whose reads and writes are raw system
// calls on its non-blocking socket, waiting in the runtime's poller as
// package net does. A read or write through package net enters a system
// call the scheduler accounts for, and the first one after the process
// was idle wakes the runtime's monitor thread, which then polls every
// 20 µs until the process is idle again: on a lane whose every call
// wakes an idle process, that thread cost more CPU than the frames.
// Neither call blocks, so neither needs that accounting.
type laneSocket struct {
	net.Conn // closes, names the ends, sets deadlines
	rc       syscall.RawConn
}

// fastLane returns c reading and writing with raw system calls when it
// is a socket that can, else c.
func fastLane(c net.Conn) net.Conn {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return c
	}
	return &laneSocket{Conn: c, rc: rc}
}

func (s *laneSocket) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n uintptr
	var errno syscall.Errno
	err := s.rc.Read(func(fd uintptr) bool {
		for {
			n, _, errno = syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			if errno != syscall.EINTR {
				return errno != syscall.EAGAIN
			}
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, s.opError("read", errno)
	case n == 0:
		return 0, io.EOF
	}
	return int(n), nil
}

func (s *laneSocket) Write(b []byte) (int, error) {
	var done int
	var errno syscall.Errno
	err := s.rc.Write(func(fd uintptr) bool {
		for done < len(b) {
			n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[done])), uintptr(len(b)-done))
			switch e {
			case 0:
				done += int(n)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // wait until the socket takes more
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return done, err
	case errno != 0:
		return done, s.opError("write", errno)
	}
	return done, nil
}

func (s *laneSocket) opError(op string, errno syscall.Errno) error {
	return &net.OpError{Op: op, Net: "unix", Source: s.LocalAddr(), Addr: s.RemoteAddr(), Err: os.NewSyscallError(op, errno)}
}

package protocol

import (
	"io"
	"net"
	"os"
	"sync"
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

	// The state of the read and the write under way, which the functions
	// rc calls, made once, see: no allocation per read or write.
	rmu    sync.Mutex
	rbuf   []byte
	rn     uintptr
	rerrno syscall.Errno
	readFn func(fd uintptr) bool

	wmu     sync.Mutex
	wbuf    []byte
	wdone   int
	werrno  syscall.Errno
	writeFn func(fd uintptr) bool
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
	s := &laneSocket{Conn: c, rc: rc}
	s.readFn, s.writeFn = s.read, s.write
	return s
}

func (s *laneSocket) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	s.rmu.Lock()
	defer s.rmu.Unlock()
	s.rbuf, s.rn, s.rerrno = b, 0, 0
	err := s.rc.Read(s.readFn)
	n, errno := s.rn, s.rerrno
	s.rbuf = nil
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

// read is one attempt of Read: false when the socket has nothing yet.
func (s *laneSocket) read(fd uintptr) bool {
	for {
		s.rn, _, s.rerrno = syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&s.rbuf[0])), uintptr(len(s.rbuf)))
		if s.rerrno != syscall.EINTR {
			return s.rerrno != syscall.EAGAIN
		}
	}
}

func (s *laneSocket) Write(b []byte) (int, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.wbuf, s.wdone, s.werrno = b, 0, 0
	err := s.rc.Write(s.writeFn)
	done, errno := s.wdone, s.werrno
	s.wbuf = nil
	switch {
	case err != nil:
		return done, err
	case errno != 0:
		return done, s.opError("write", errno)
	}
	return done, nil
}

// write is one attempt of Write: false when the socket takes no more yet.
func (s *laneSocket) write(fd uintptr) bool {
	for s.wdone < len(s.wbuf) {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&s.wbuf[s.wdone])), uintptr(len(s.wbuf)-s.wdone))
		switch e {
		case 0:
			s.wdone += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false // wait until the socket takes more
		default:
			s.werrno = e
			return true
		}
	}
	return true
}

func (s *laneSocket) opError(op string, errno syscall.Errno) error {
	return &net.OpError{Op: op, Net: "unix", Source: s.LocalAddr(), Addr: s.RemoteAddr(), Err: os.NewSyscallError(op, errno)}
}

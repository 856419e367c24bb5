package rawsock

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// Listener returns ln, whose TCP connections read and write with raw
// system calls. A connection keeps every method of *net.TCPConn, and its
// Read and Write return what package net's would, errors included.
func Listener(ln net.Listener) net.Listener { return listener{ln} }

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return c, err
	}
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c, nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return c, nil
	}
	s := &conn{TCPConn: tc, rc: rc}
	s.readFn, s.writeFn = s.read, s.write
	return s, nil
}

// conn is a TCP connection whose Read and Write are raw system calls.
type conn struct {
	*net.TCPConn // closes, names the ends, sets deadlines, CloseWrite, ReadFrom
	rc           syscall.RawConn

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

func (c *conn) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	c.rmu.Lock()
	defer c.rmu.Unlock()
	c.rbuf, c.rn, c.rerrno = b, 0, 0
	err := c.rc.Read(c.readFn)
	n, errno := c.rn, c.rerrno
	c.rbuf = nil
	switch {
	case err != nil:
		return 0, c.netError("read", err)
	case errno != 0:
		return 0, c.opError("read", os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	return int(n), nil
}

// read is one attempt of Read: false when the socket has nothing yet.
func (c *conn) read(fd uintptr) bool {
	for {
		c.rn, _, c.rerrno = syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&c.rbuf[0])), uintptr(len(c.rbuf)))
		if c.rerrno != syscall.EINTR {
			return c.rerrno != syscall.EAGAIN
		}
	}
}

func (c *conn) Write(b []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf, c.wdone, c.werrno = b, 0, 0
	err := c.rc.Write(c.writeFn)
	done, errno := c.wdone, c.werrno
	c.wbuf = nil
	switch {
	case err != nil:
		return done, c.netError("write", err)
	case errno != 0:
		return done, c.opError("write", os.NewSyscallError("write", errno))
	}
	return done, nil
}

// write is one attempt of Write: false when the socket takes no more yet.
func (c *conn) write(fd uintptr) bool {
	for c.wdone < len(c.wbuf) {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&c.wbuf[c.wdone])), uintptr(len(c.wbuf)-c.wdone))
		switch e {
		case 0:
			c.wdone += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false // wait until the socket takes more
		default:
			c.werrno = e
			return true
		}
	}
	return true
}

// netError is err, from the raw connection (closed, or a deadline
// passed), as package net's Read or Write names it: op, not "raw-read".
func (c *conn) netError(op string, err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		named := *oe
		named.Op = op
		return &named
	}
	return err
}

func (c *conn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}

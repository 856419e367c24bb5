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

// Listener returns ln, whose connections read and write with raw system
// calls (Conn).
func Listener(ln net.Listener) net.Listener { return listener{ln} }

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return c, err
	}
	return Conn(c), nil
}

// Conn returns c reading and writing with raw system calls when it is a
// socket that can, else c. Its Read and Write return what package net's
// would, errors included, and it keeps CloseWrite.
func Conn(c net.Conn) net.Conn {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return c
	}
	s := &conn{Conn: c, rc: rc}
	s.readFn, s.writeFn = s.read, s.write
	return s
}

// conn is a connection whose Read and Write are raw system calls.
type conn struct {
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

// CloseWrite shuts down the writing side, as *net.TCPConn's and
// *net.UnixConn's do (net/http closes a connection's writes this way).
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return &net.OpError{Op: "close", Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: errors.ErrUnsupported}
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
// The raw connection makes a new *net.OpError for each error, which is
// renamed as it is: net/http's background read ends with one per request.
func (c *conn) netError(op string, err error) error {
	if oe, ok := err.(*net.OpError); ok {
		oe.Op = op
		return oe
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		named := *oe
		named.Op = op
		return &named
	}
	return err
}

func (c *conn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}

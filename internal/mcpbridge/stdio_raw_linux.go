package mcpbridge

import (
	"io"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// Standard input and output without the scheduler's hand-offs. A read or
// write through the os package on a blocking descriptor tells the runtime
// that the thread may block: each such call wakes the runtime's monitor
// thread from its sleep, which then polls every 20 µs while the process
// works, and a goroutine waiting for input holds a thread in read. A
// session that reads a pipe or a socket reads and writes a duplicate of it
// made non-blocking: a goroutine waiting for input parks in the runtime's
// poller like a network connection, and every read and write is a raw
// system call, which cannot block, so the monitor sleeps through the calls.
// The descriptor's mode is restored when the session ends.

// rawFile is a pipe or a socket read or written through a non-blocking
// duplicate with raw system calls.
type rawFile struct {
	orig *os.File // the file as given
	dup  *os.File // its non-blocking duplicate, in the runtime's poller
	rc   syscall.RawConn
	// release closes dup and gives the open file its mode back.
	release func()
}

// newRawFile returns f read or written through a non-blocking duplicate,
// or nil when f is not a pipe or a socket, or the duplicate cannot be made
// or polled.
func newRawFile(f *os.File) *rawFile {
	if !pipeOrSocket(f) {
		return nil
	}
	orc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	// dup is read and written; keep restores the mode, even when f is
	// closed first.
	dup, keep, flags := -1, -1, 0
	orc.Control(func(fd uintptr) {
		fl, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		if e != 0 {
			return
		}
		d, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_DUPFD_CLOEXEC, 0)
		if e != 0 {
			return
		}
		k, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_DUPFD_CLOEXEC, 0)
		if e != 0 {
			syscall.Close(int(d))
			return
		}
		dup, keep, flags = int(d), int(k), int(fl)
	})
	if dup < 0 {
		return nil
	}
	// The mode belongs to the open file, which dup shares with f.
	if syscall.SetNonblock(dup, true) != nil {
		syscall.Close(dup)
		syscall.Close(keep)
		return nil
	}
	rf := &rawFile{orig: f}
	rf.dup = os.NewFile(uintptr(dup), f.Name())
	rf.release = sync.OnceFunc(func() {
		// Closing waits for a read or write in progress to return, so
		// none runs on a blocking descriptor.
		rf.dup.Close()
		syscall.Syscall(syscall.SYS_FCNTL, uintptr(keep), syscall.F_SETFL, uintptr(flags))
		syscall.Close(keep)
	})
	if rf.dup.SetDeadline(time.Time{}) != nil { // not in the poller
		rf.release()
		return nil
	}
	if rf.rc, err = rf.dup.SyscallConn(); err != nil {
		rf.release()
		return nil
	}
	return rf
}

// pipeOrSocket reports whether f is a pipe or a socket.
func pipeOrSocket(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0
}

// sameFile reports whether a and b are the same pipe, socket or file.
func sameFile(a, b *os.File) bool {
	if a == nil || b == nil {
		return false
	}
	fa, err := a.Stat()
	if err != nil {
		return true // cannot tell: assume shared
	}
	fb, err := b.Stat()
	return err != nil || os.SameFile(fa, fb)
}

// Read reads as the original file would, with a raw system call, waiting
// in the runtime's poller while there is nothing to read.
func (rf *rawFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := rf.rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false
			}
			n, errno = int(r), e
			return true
		}
	})
	switch {
	case err != nil:
		return 0, &os.PathError{Op: "read", Path: rf.orig.Name(), Err: err}
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: rf.orig.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of b with raw system calls, waiting in the runtime's
// poller while the reader is behind. On an error it writes the rest
// through the original file, which fails as it always did (on stdout, a
// broken pipe raises SIGPIPE as the os package does).
func (rf *rawFile) Write(b []byte) (int, error) {
	done := 0
	failed := false
	err := rf.rc.Write(func(fd uintptr) bool {
		for done < len(b) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[done])), uintptr(len(b)-done))
			switch e {
			case 0:
				done += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				failed = true
				return true
			}
		}
		return true
	})
	if err != nil || failed {
		n, err := rf.orig.Write(b[done:])
		return done + n, err
	}
	return done, nil
}

// rawStdio returns r and w read and written with raw system calls where
// they are pipes or sockets, and what restores them when the session
// ends. A file that may be shared with standard error, whose writes
// expect a blocking descriptor, is left as it is.
func rawStdio(r io.Reader, w io.Writer) (io.Reader, io.Writer, func()) {
	rf, _ := r.(*os.File)
	wf, _ := w.(*os.File)
	var in, out *rawFile
	if wf != nil && !sameFile(wf, os.Stderr) {
		out = newRawFile(wf)
	}
	if rf != nil && !sameFile(rf, os.Stderr) {
		if !sameFile(rf, wf) {
			in = newRawFile(rf)
		} else {
			in = out // a socket both ways: one duplicate, or none
		}
	}
	release := func() {
		if in != nil {
			in.release()
		}
		if out != nil {
			out.release()
		}
	}
	if in != nil {
		r = &rawInput{in, in == out}
	}
	if out != nil {
		w = out
	}
	return r, w, release
}

// rawInput is the input's rawFile, which Close closes as the original
// would be, after releasing it unless the output shares it.
type rawInput struct {
	*rawFile
	shared bool
}

func (in *rawInput) Close() error {
	if !in.shared {
		in.release()
	}
	return in.orig.Close()
}

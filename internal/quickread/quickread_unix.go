//go:build unix

package quickread

import (
	"os"
	"syscall"
)

// File reads the file at path, as os.ReadFile does, with its errors
// (*os.PathError). size is the size the caller expects (from a stat it
// made), or 0 when it does not know; the file is read whole whatever its
// size, in one read when it has that size. It does not wait for a FIFO's
// writer: such a read fails.
func File(path string, size int64) ([]byte, error) { return FileInto(nil, path, size) }

// FileInto is File reading into buf's storage, which it grows when the
// file does not fit (a hint larger than its capacity makes a new one):
// a caller reading many files one after another reuses one buffer.
func FileInto(buf []byte, path string, size int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	n := 8 << 10
	if size > 0 && size < 1<<30 {
		n = int(size) + 1 // one read, short of the buffer at the end
	}
	if cap(buf) == 0 || size > 0 && cap(buf) < n {
		buf = make([]byte, 0, n)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		asked := cap(buf) - len(buf)
		m, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+m]
		// A read of a regular file that stops short of what it asked
		// stops at the end: when that is the size the caller's stat
		// gave, a read for the end is left out. At any other size the
		// file is read until a read returns nothing.
		if m < asked && size > 0 && int64(len(buf)) == size {
			return buf, nil
		}
	}
}

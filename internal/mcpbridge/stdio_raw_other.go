//go:build !linux

package mcpbridge

import "io"

// rawStdio leaves r and w as they are: only Linux reads and writes
// standard input and output with raw system calls (stdio_raw_linux.go).
func rawStdio(r io.Reader, w io.Writer) (io.Reader, io.Writer, func()) {
	return r, w, func() {}
}

//go:build unix

package research

import (
	"os"
	"syscall"
)

// openFlags open a workspace file for reading without blocking on a FIFO
// and without taking a terminal as the controlling one.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

//go:build unix

package modproc

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the id exists (it may belong
// to another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

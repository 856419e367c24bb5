//go:build unix

package testenv

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time this process used so far, all threads.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

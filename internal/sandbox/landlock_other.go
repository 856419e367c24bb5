//go:build !linux

package sandbox

import (
	"errors"
	"runtime"
)

// ABI returns 0: only Linux has Landlock.
func ABI() int { return 0 }

// kernel reports no Landlock and no seccomp.
func kernel() kernelFacts {
	return kernelFacts{seccomp: SeccompSupported(), hosts: SeccompSupported()}
}

// Start fails: nothing here can confine a process, and a host passes a
// Policy only where [Enforcement.Confines].
func Start(*Policy, func() error, <-chan struct{}) error {
	return errors.New("confine a process: no Landlock on this OS (" + runtime.GOOS + ")")
}

// Confined reports false: nothing confines a process here.
func Confined() bool { return false }

// SeccompSupported fails: seccomp is Linux's.
func SeccompSupported() error { return errors.New(runtime.GOOS + " has no seccomp") }

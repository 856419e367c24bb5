//go:build !linux

package sandbox

import (
	"errors"
	"runtime"
)

// ABI returns 0: only Linux has Landlock.
func ABI() int { return 0 }

// Check fails: mods are confined only on Linux.
func Check() error {
	if disabled.Load() {
		return errDisabled
	}
	return errors.New(runtime.GOOS + " has no Landlock: mods are confined only on Linux")
}

// Start fails as Check does: nothing here can confine a process.
func Start(*Policy, func() error, <-chan struct{}) error { return Check() }

// Confined reports false: nothing confines a process here.
func Confined() bool { return false }

// SeccompSupported fails: seccomp is Linux's.
func SeccompSupported() error { return errors.New(runtime.GOOS + " has no seccomp") }

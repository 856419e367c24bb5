//go:build !linux

package modproc

import "syscall"

// SysProcAttr is nil outside Linux, which has no parent-death signal:
// the mod watches its parent and exits when the host is gone (sdk/serve).
func SysProcAttr() *syscall.SysProcAttr { return nil }

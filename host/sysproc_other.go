//go:build !linux

package host

import "syscall"

// modSysProcAttr is nil outside Linux, which has no parent-death signal:
// the mod watches its parent and exits when the host is gone (sdk/serve).
func modSysProcAttr() *syscall.SysProcAttr { return nil }

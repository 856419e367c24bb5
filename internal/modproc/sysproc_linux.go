package modproc

import "syscall"

// SysProcAttr makes the kernel kill a mod when the host dies, even by
// SIGKILL. The signal follows the thread that forked, so mods are started
// from threads that live as long as the host (see OnStarterThread).
func SysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

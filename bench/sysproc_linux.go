package main

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal kills a baseline server when the benchmark dies.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

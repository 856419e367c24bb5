package bare

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal kills the plugin when the benchmark dies.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

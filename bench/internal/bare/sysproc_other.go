//go:build !linux

package bare

import "os/exec"

func setParentDeathSignal(*exec.Cmd) {}

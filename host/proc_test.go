package host_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// modPIDs returns the processes running a binary from dir.
func modPIDs(t testing.TB, dir string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc: cannot list processes")
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil {
			continue
		}
		if strings.HasPrefix(exe, dir+string(filepath.Separator)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func alive(pid int) bool {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	// A zombie has exited; it only waits for its parent to reap it.
	fields := strings.Fields(string(data))
	return len(fields) < 3 || fields[2] != "Z"
}

// waitGone waits for the processes in pids to exit.
func waitGone(t testing.TB, pids []int) {
	t.Helper()
	for _, pid := range pids {
		waitFor(t, "process "+strconv.Itoa(pid)+" to exit", func() bool { return !alive(pid) })
	}
}

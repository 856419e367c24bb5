package modproc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// socketDirPrefix starts the name of every mod's socket directory in the
// temporary directory: modkit-<mod id>-<host pid>-<random>.
const socketDirPrefix = "modkit-"

// NewSocketDir creates the directory for the socket of a process of mod
// id. The host removes it when the process ends; when the host itself dies
// first, the next host to start a mod sweeps it.
func NewSocketDir(id string) (string, error) {
	return os.MkdirTemp("", socketDirPrefix+id+"-"+strconv.Itoa(os.Getpid())+"-")
}

// SweepSocketDirs removes the socket directories left by hosts that are
// gone. A directory whose host process still runs, or whose name does not
// say which host made it, is left alone.
func SweepSocketDirs() {
	dir := os.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := socketDirOwner(e.Name())
		if !ok || !e.IsDir() || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// socketDirOwner returns the host process id in a socket directory's name.
func socketDirOwner(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, socketDirPrefix)
	if !ok {
		return 0, false
	}
	// The mod id may hold dashes: the pid and the random part are last.
	parts := strings.Split(rest, "-")
	if len(parts) < 3 {
		return 0, false
	}
	if _, err := strconv.ParseUint(parts[len(parts)-1], 10, 64); err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

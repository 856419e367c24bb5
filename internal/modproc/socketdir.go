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
//
// It reads the directory's names only, unsorted, and looks closer at a
// name that is a socket directory's: the temporary directory of a busy
// machine holds hundreds of entries, which os.ReadDir would each allocate
// and sort, beside a mod's first start.
func SweepSocketDirs() {
	dir := os.TempDir()
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return
	}
	for _, name := range names {
		pid, ok := socketDirOwner(name)
		if !ok || pid == os.Getpid() {
			continue
		}
		path := filepath.Join(dir, name)
		if fi, err := os.Lstat(path); err != nil || !fi.IsDir() || processAlive(pid) {
			continue
		}
		os.RemoveAll(path)
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

//go:build unix

package protocol

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"

	"github.com/modkit/modkit/internal/rawsock"
)

// LaneSupported reports whether the host hands mods a call lane on this
// platform: a socketpair, which only unix systems have.
const LaneSupported = true

// NewLanePair returns the two ends of a new call lane, a unix socketpair:
// the host keeps host; the mod process inherits child (pass it in
// exec.Cmd.ExtraFiles, then close it). Neither end is inherited by any
// other process the host starts.
func NewLanePair() (host, child *os.File, err error) {
	// As package net does where SOCK_CLOEXEC is missing (macOS): no fork
	// between the socketpair and the flags.
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, fmt.Errorf("call lane: socketpair: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "call lane (host)"), os.NewFile(uintptr(fds[1]), "call lane (mod)"), nil
}

// LaneConn returns a connection on the lane end f, and closes f.
func LaneConn(f *os.File) (net.Conn, error) {
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("call lane: %w", err)
	}
	return rawsock.Conn(c), nil
}

// OpenLane returns the mod's end of the call lane its host handed it, nil
// when it handed none. The descriptor is closed on exec, so no process the
// mod starts inherits it, and the variable naming it is removed.
func OpenLane() (net.Conn, error) {
	v, ok := os.LookupEnv(EnvCallLaneFD)
	if !ok {
		return nil, nil
	}
	os.Unsetenv(EnvCallLaneFD)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("call lane: %s=%q is not an inherited file descriptor", EnvCallLaneFD, v)
	}
	syscall.CloseOnExec(fd)
	return LaneConn(os.NewFile(uintptr(fd), "call lane"))
}

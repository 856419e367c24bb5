package peercred

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// Supported reports whether this platform tells a unix socket's peer.
const Supported = true

func peerOf(raw syscall.RawConn) (Peer, error) {
	var cred *unix.Xucred
	var pid int
	var err, pidErr error
	if cerr := raw.Control(func(fd uintptr) {
		cred, err = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		pid, pidErr = unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	}); cerr != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", cerr)
	}
	if err != nil {
		return Peer{}, fmt.Errorf("peer credentials: LOCAL_PEERCRED: %w", err)
	}
	if pidErr != nil {
		return Peer{}, fmt.Errorf("peer credentials: LOCAL_PEERPID: %w", pidErr)
	}
	return Peer{PID: pid, UID: int(cred.Uid)}, nil
}

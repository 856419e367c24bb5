package peercred

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// Supported reports whether this platform tells a unix socket's peer.
const Supported = true

func peerOf(raw syscall.RawConn) (Peer, error) {
	var cred *unix.Ucred
	var err error
	if cerr := raw.Control(func(fd uintptr) {
		cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); cerr != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", cerr)
	}
	if err != nil {
		return Peer{}, fmt.Errorf("peer credentials: SO_PEERCRED: %w", err)
	}
	return Peer{PID: int(cred.Pid), UID: int(cred.Uid)}, nil
}

//go:build !linux && !darwin

package peercred

import (
	"errors"
	"syscall"
)

// Supported reports whether this platform tells a unix socket's peer.
const Supported = false

func peerOf(syscall.RawConn) (Peer, error) {
	return Peer{}, errors.New("peer credentials: not available on this platform")
}

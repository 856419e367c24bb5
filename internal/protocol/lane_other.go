//go:build !unix

package protocol

import (
	"errors"
	"net"
	"os"
)

// LaneSupported reports whether the host hands mods a call lane on this
// platform: a socketpair, which only unix systems have. Elsewhere tool
// calls go over gRPC.
const LaneSupported = false

var errNoLane = errors.New("call lane: not supported on this platform")

// NewLanePair returns nil ends: there is no call lane on this platform.
func NewLanePair() (host, child *os.File, err error) { return nil, nil, nil }

// LaneConn fails: there is no call lane on this platform.
func LaneConn(f *os.File) (net.Conn, error) {
	f.Close()
	return nil, errNoLane
}

// OpenLane returns nil: there is no call lane on this platform.
func OpenLane() (net.Conn, error) { return nil, nil }

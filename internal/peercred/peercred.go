package peercred

import (
	"context"
	"fmt"
	"net"
	"os"
	"syscall"

	"google.golang.org/grpc/credentials"
)

// AuthType names these credentials in gRPC's AuthInfo.
const AuthType = "peercred"

// Peer is the process at the other end of a unix socket, as the kernel
// reports it.
type Peer struct {
	PID int
	UID int
}

// Info is the AuthInfo of a connection whose peer was checked.
type Info struct {
	credentials.CommonAuthInfo
	Peer Peer
}

// AuthType implements credentials.AuthInfo.
func (Info) AuthType() string { return AuthType }

// Of returns the process at the other end of conn, a unix socket.
func Of(conn net.Conn) (Peer, error) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return Peer{}, fmt.Errorf("peer credentials: a %T is not a unix socket", conn)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", err)
	}
	return peerOf(raw)
}

// Check fails unless conn's peer is process pid of the current user.
func Check(conn net.Conn, pid int) (Peer, error) {
	p, err := Of(conn)
	if err != nil {
		return p, err
	}
	if uid := os.Getuid(); p.UID != uid || p.PID != pid || pid <= 0 {
		return p, fmt.Errorf("peer credentials: the peer is process %d of user %d, want process %d of user %d", p.PID, p.UID, pid, uid)
	}
	return p, nil
}

// Credentials are gRPC transport credentials that pass a unix socket
// through unchanged once its peer is the wanted process of the current
// user, and close it otherwise.
type Credentials struct {
	// PID returns the pid the peer must have, asked at each handshake.
	PID func() int
}

// New returns credentials accepting only the process pid returns.
func New(pid func() int) *Credentials { return &Credentials{PID: pid} }

var _ credentials.TransportCredentials = (*Credentials)(nil)

func (c *Credentials) handshake(conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	p, err := Check(conn, c.PID())
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	// The bytes stay in the kernel between two known processes.
	return conn, Info{CommonAuthInfo: credentials.CommonAuthInfo{SecurityLevel: credentials.PrivacyAndIntegrity}, Peer: p}, nil
}

// ClientHandshake implements credentials.TransportCredentials.
func (c *Credentials) ClientHandshake(_ context.Context, _ string, conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return c.handshake(conn)
}

// ServerHandshake implements credentials.TransportCredentials.
func (c *Credentials) ServerHandshake(conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return c.handshake(conn)
}

// Info implements credentials.TransportCredentials.
func (c *Credentials) Info() credentials.ProtocolInfo {
	return credentials.ProtocolInfo{SecurityProtocol: AuthType}
}

// Clone implements credentials.TransportCredentials.
func (c *Credentials) Clone() credentials.TransportCredentials { return &Credentials{PID: c.PID} }

// OverrideServerName implements credentials.TransportCredentials; a unix
// socket has no server name.
func (c *Credentials) OverrideServerName(string) error { return nil }

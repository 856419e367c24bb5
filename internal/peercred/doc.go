// Package peercred authenticates the two ends of a mod's private unix
// socket by what the kernel says about the process at the other end, in
// place of TLS.
//
// # The argument
//
// The host and a mod it starts talk over a unix socket in a directory the
// host creates for that one process, with mode 0700. go-plugin secures the
// connection with mutual TLS (AutoMTLS): a certificate each side makes at
// start and the other side pins. On a unix socket, the kernel already knows
// who is at the other end, and says so to each side through SO_PEERCRED
// (Linux) or LOCAL_PEERCRED and LOCAL_PEERPID (macOS), which cannot be
// forged by the peer:
//
//   - The mod accepts a connection only from a process of its own user
//     whose pid is its parent's: the host that started it. A process of
//     another user cannot open the socket at all (the directory is the
//     host user's, 0700); another process of the same user can reach the
//     socket but is refused at the first byte, before any RPC is read.
//   - The host dials and talks only to a socket served by a process of its
//     own user whose pid is the child it started, so a process that put
//     another socket in the directory is refused too.
//
// Each pid stays that process's while the other end can use it: the mod
// dies with its host (Pdeathsig, and it watches its parent) and the host
// reaps its child, so neither pid can be reused by another process while
// the connection is open. mTLS gives the same two facts — the peer is the
// process that was started, of the same user — at the cost of key
// generation at every start and encryption of every message. The bytes
// never leave the kernel, so encryption protects nothing a peer check
// does not.
//
// Where the platform has no such check (Windows, whose go-plugin transport
// is TCP on loopback, and unixes other than Linux and macOS), [Supported]
// is false and the host keeps go-plugin's AutoMTLS.
package peercred

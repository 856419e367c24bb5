package protocol

import (
	"errors"
	"os"

	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/peercred"
)

// AutoMTLS reports whether the host secures a mod's connection with
// go-plugin's AutoMTLS. Where the kernel tells a unix socket's peer (Linux,
// macOS), the host and the mod check each other's process instead; see
// package [peercred] for why that is as safe.
const AutoMTLS = !peercred.Supported

// envClientCert is the variable through which a host using AutoMTLS gives
// the mod its certificate (go-plugin's name).
const envClientCert = "PLUGIN_CLIENT_CERT"

// PeerDialOptions are the host's options for its connection to the mod
// process whose pid childPID returns: the connection is refused unless the
// socket is served by that process, of the host's user. None when the host
// uses AutoMTLS.
func PeerDialOptions(childPID func() int) []grpc.DialOption {
	if AutoMTLS {
		return nil
	}
	return []grpc.DialOption{grpc.WithTransportCredentials(peercred.New(childPID))}
}

// PeerServerOptions are a mod process's options for the connections it
// accepts: only its parent, the host that started it, of the same user,
// unless the host secures the connection with AutoMTLS (it then gave the
// mod a certificate, and go-plugin sets up TLS). A mod started without
// either is refused: it would answer any local process.
func PeerServerOptions() ([]grpc.ServerOption, error) {
	if os.Getenv(envClientCert) != "" {
		return nil, nil
	}
	if !peercred.Supported {
		return nil, errors.New("serve: the host gave no TLS certificate, and this platform cannot check who connects")
	}
	parent := os.Getppid()
	return []grpc.ServerOption{grpc.Creds(peercred.New(func() int { return parent }))}, nil
}

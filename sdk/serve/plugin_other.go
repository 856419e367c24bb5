//go:build !linux && !darwin

package serve

import (
	"context"
	"errors"
	"log/slog"
	"net"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/goplugin"
)

// Where the kernel does not tell a unix socket's peer, the host secures the
// connection with go-plugin's AutoMTLS, and the mod serves through
// go-plugin's own server, which sets up the TLS.

// inProcess serves a mod in a test's process (Linux and macOS only).
type inProcess struct {
	Ctx  context.Context
	Addr chan<- net.Addr
}

// peerOptions are the options that let only the host connect: none, with
// the certificate go-plugin's TLS checks.
func peerOptions() ([]grpc.ServerOption, error) { return protocol.PeerServerOptions() }

// servePlugin serves mod through go-plugin until the host stops it.
func servePlugin(mod modapi.Mod, newServer func([]grpc.ServerOption) *grpc.Server, log *slog.Logger, test *inProcess) error {
	if test != nil {
		return errors.New("serve: serving in a test's process needs Linux or macOS")
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  goplugin.Handshake,
		VersionedPlugins: goplugin.PluginSets(mod),
		GRPCServer:       newServer,
		Logger:           goplugin.HCLogger(log),
	})
	return nil
}

package protocol

import (
	"context"
	"runtime"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
)

// Version is the newest protocol version this package speaks. Version 2
// authenticates the unix socket by peer credentials where version 1 used
// TLS (see [AutoMTLS]); the messages are version 1's. A host speaks only
// version 2, so that it never runs a mod that would answer any local
// process.
const Version = 2

// EnvLogLevel names the environment variable through which the host tells a
// mod the lowest log level it keeps: "debug", "info", "warn" or "error".
const EnvLogLevel = "MODKIT_LOG_LEVEL"

// ExitGraceExpired is the exit status of a mod process that ended itself
// because a cancelled handler ran past its grace period, so the host can say
// so instead of reporting a crash.
const ExitGraceExpired = 86

// EnvMaxMessageBytes names the environment variable through which the host
// tells a mod the gRPC message limit it sets, for the mod to set the same.
const EnvMaxMessageBytes = "MODKIT_MAX_MESSAGE_BYTES"

// EnvCallLaneFD names the environment variable through which the host
// tells a mod the file descriptor of its end of the call lane (see
// [NewLanePair]).
const EnvCallLaneFD = "MODKIT_CALL_LANE_FD"

// PluginName is the name of the one plugin a mod process serves.
const PluginName = "mod"

// Handshake is shared by the host and every mod. A binary started without the
// magic cookie (by hand, say) prints a message and exits.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  Version,
	MagicCookieKey:   "MODKIT_PLUGIN",
	MagicCookieValue: "6a1f0c5e-modkit-mod",
}

// GRPCPlugin adapts a mod to go-plugin. The serving side sets Impl; the
// host leaves it nil and gets a [*GRPCClient], a [modapi.Mod], from
// Dispense.
type GRPCPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	// Impl is the mod in the mod process.
	Impl modapi.Mod
	// MaxMessageBytes is the largest message the host's connection sends;
	// see [GRPCClient.MaxSendBytes].
	MaxMessageBytes int
}

// GRPCServer implements plugin.GRPCPlugin.
func (p *GRPCPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterModServer(s, &GRPCServer{Impl: p.Impl})
	pb.RegisterModFeaturesServer(s, &FeaturesServer{Impl: p.Impl})
	return nil
}

// GRPCClient implements plugin.GRPCPlugin.
func (p *GRPCPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &GRPCClient{PB: pb.NewModClient(c), Features: pb.NewModFeaturesClient(c), MaxSendBytes: p.MaxMessageBytes}, nil
}

// PluginSets returns the versioned plugin sets: server is nil on the host
// side.
func PluginSets(server modapi.Mod) map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		2: {PluginName: &GRPCPlugin{Impl: server}},
	}
}

// HostPluginSets returns the versioned plugin sets of a host whose
// connections carry messages of at most maxMsg bytes each way; use it
// with [DialOptions].
func HostPluginSets(maxMsg int) map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		2: {PluginName: &GRPCPlugin{MaxMessageBytes: maxMsg}},
	}
}

// DialOptions are the host's options for its connection to a mod: messages
// of at most maxMsg bytes each way, and a fixed flow-control window.
func DialOptions(maxMsg int) []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMsg), grpc.MaxCallSendMsgSize(maxMsg)),
		grpc.WithInitialWindowSize(window), grpc.WithInitialConnWindowSize(window),
	}
}

// window is the flow-control window of each stream and connection between
// host and mod. Setting it turns off gRPC's bandwidth estimation, which
// pings the peer as data arrives to grow the window: a round trip of its
// own on a call's every message, for a link that never leaves the machine.
const window = 1 << 20

// ServerOptions are a mod process's options for the host's connection:
// the same window as the host's, and handlers run on reused goroutines,
// whose stacks have grown already, rather than one new goroutine a
// request.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.InitialWindowSize(window), grpc.InitialConnWindowSize(window),
		grpc.NumStreamWorkers(uint32(runtime.GOMAXPROCS(0))),
	}
}

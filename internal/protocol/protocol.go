package protocol

import (
	"runtime"

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

// MagicCookieKey and MagicCookieValue are the environment variable a host
// sets for every mod it starts, and its value. A binary started without
// them (by hand, say) prints a message and exits.
const (
	MagicCookieKey   = "MODKIT_PLUGIN"
	MagicCookieValue = "6a1f0c5e-modkit-mod"
)

// RegisterMod registers impl's services on s: what a mod process serves.
func RegisterMod(s *grpc.Server, impl modapi.Mod) {
	pb.RegisterModServer(s, &GRPCServer{Impl: impl})
	pb.RegisterModFeaturesServer(s, &FeaturesServer{Impl: impl})
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

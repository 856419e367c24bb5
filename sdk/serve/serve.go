package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/heapfloor"
	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/internal/modtrace"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/sdk"
)

// EnvLogLevel names the environment variable through which the host tells a
// mod the lowest log level it keeps: "debug", "info", "warn" or "error".
const EnvLogLevel = protocol.EnvLogLevel

// Options configure Serve. A nil *Options means all defaults.
type Options struct {
	// Logger receives the mod's logs. Default: JSON lines on the process's
	// stderr, which the host re-logs at their level, at the level the host
	// asks for in MODKIT_LOG_LEVEL (info when unset).
	Logger *slog.Logger
	// ParentPoll is how often the mod checks that its host is alive; the
	// process exits when the host has gone. Default 100ms.
	ParentPoll time.Duration
}

// Main serves g and exits the process when the host stops it. It is what a
// mod binary's main calls; it never returns.
func Main(g *sdk.Generated) {
	if err := Serve(g, nil); err != nil {
		fmt.Fprintf(os.Stderr, "mod: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Serve serves g until the host stops the mod. A binary started by hand
// rather than by a host prints a message and exits.
func Serve(g *sdk.Generated, opts *Options) error { return serve(g, opts, nil) }

// serve is Serve, or with test set, serving in the current process: no
// handshake on stdout and no parent watcher.
func serve(g *sdk.Generated, opts *Options, test *inProcess) error {
	if g == nil {
		return errors.New("serve: no mod (nil *sdk.Generated)")
	}
	if len(g.Manifest) == 0 {
		return errors.New("serve: the mod has no manifest: run go generate in its package")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		// Created before stdout and stderr become pipes to the host: these
		// lines go to the real stderr, which the host parses.
		o.Logger = slog.New(protocol.NewJSONLogHandler(os.Stderr, levelFromEnv()))
	}
	if o.ParentPoll <= 0 {
		o.ParentPoll = 100 * time.Millisecond
	}
	// A handler past its grace period ends the process; serving in a
	// test's process, it is only logged.
	exit := os.Exit
	if test != nil {
		exit = func(int) {}
	}
	hs := newHandlers(o.Logger, exit)
	spans := tracing()
	var peerOpts []grpc.ServerOption
	var lane *protocol.LaneServer
	var laneConn net.Conn
	if test == nil {
		if os.Getenv(protocol.MagicCookieKey) != protocol.MagicCookieValue {
			return errors.New("this binary is a modkit mod: a modkit host starts it, it is not meant to be run by hand")
		}
		var err error
		if peerOpts, err = peerOptions(); err != nil {
			return err
		}
		go watchParent(os.Getppid(), o.ParentPoll, o.Logger)
		heapfloor.Start()
		if lane, laneConn, err = openLane(hs, spans); err != nil {
			// The host then calls tools over gRPC.
			o.Logger.Warn("no call lane", "error", err.Error())
		}
	}
	srv := tracked{modserver.New(g, o.Logger), hs, lane}
	if lane != nil {
		lane.Impl = srv
		go func() {
			if err := lane.Serve(laneConn); err != nil {
				o.Logger.Error("the call lane failed; tool calls fail until the host restarts the mod", "error", err.Error())
			}
		}()
	}
	newServer := func(opts []grpc.ServerOption) *grpc.Server {
		max := maxMessageBytes()
		opts = append(opts, grpc.ChainUnaryInterceptor(modtrace.ServerUnary(spans), hs.unary),
			grpc.ChainStreamInterceptor(modtrace.ServerStream(spans), hs.stream),
			grpc.MaxRecvMsgSize(max), grpc.MaxSendMsgSize(max))
		opts = append(append(opts, protocol.ServerOptions()...), peerOpts...)
		return grpc.NewServer(opts...)
	}
	err := servePlugin(srv, newServer, o.Logger, test)
	if test == nil {
		// The host stopped the mod: cancelled handlers may finish, within
		// their grace periods, before the process exits.
		if lane != nil {
			lane.Close()
		}
		hs.wait()
	}
	return err
}

// maxMessageBytes is the gRPC message limit the host asks for, or the one a
// host with default options sets.
func maxMessageBytes() int {
	if n, err := strconv.Atoi(os.Getenv(protocol.EnvMaxMessageBytes)); err == nil && n > 0 {
		return n
	}
	return limits.MessageBytes(limits.DefaultRequestBytes, limits.DefaultResultBytes)
}

func levelFromEnv() slog.Level {
	switch strings.ToLower(os.Getenv(EnvLogLevel)) {
	case "trace":
		return slog.LevelDebug - 4
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	default:
		return slog.LevelInfo
	}
}

// tracked is the mod's server answering CallRunning from the handlers the
// gRPC interceptors track: tools, hooks, commands and views alike.
type tracked struct {
	*modserver.Server
	hs   *handlers
	lane *protocol.LaneServer // nil when tool calls come over gRPC
}

func (t tracked) CallRunning(_ context.Context, req *modapi.CallRunningRequest) (*modapi.CallRunningResponse, error) {
	return &modapi.CallRunningResponse{Running: t.hs.isRunning(req.CallID)}, nil
}

// Describe adds to the mod's description whether its process is confined,
// as the host that started it checks.
func (t tracked) Describe(ctx context.Context, req *modapi.DescribeRequest) (*modapi.DescribeResponse, error) {
	resp, err := t.Server.Describe(ctx, req)
	if err == nil {
		resp.Confined = sandbox.Confined()
		resp.CallLane = t.lane != nil
		resp.LaneSteps = t.lane != nil
	}
	return resp, err
}

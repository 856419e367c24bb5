//go:build linux || darwin

package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol"
)

// Where the kernel tells a unix socket's peer (Linux, macOS), a mod speaks
// the mod's side of hashicorp/go-plugin's protocol itself rather than
// linking go-plugin, whose server brings net/rpc, encoding/gob, yamux,
// text/template and the TLS and X.509 code of its AutoMTLS: about a
// quarter of a mod's binary, mapped and paged in by every mod process. A
// host on these platforms never asks for TLS (the two ends check each
// other's process instead, see package peercred), so none of that runs.
//
// The mod's side, as go-plugin's client expects it (version 1 of its core
// protocol, gRPC only):
//   - a unix socket in $PLUGIN_UNIX_SOCKET_DIR, announced by one line on
//     stdout, "1|VERSION|unix|PATH|grpc|" (no server certificate);
//   - on it, the mod's services and go-plugin's own: plugin.GRPCController
//     (Shutdown stops the server), plugin.GRPCStdio (the process's stdout
//     and stderr, which are pipes from then on, reach the host's
//     SyncStdout and SyncStderr), plugin.GRPCBroker (held open and never
//     used: mods open no extra connections) and the health service;
//   - SIGINT ignored, so that a terminal's ^C reaches the host, which
//     stops its mods in order.

// The names and the environment variables of go-plugin's protocol.
const (
	envSocketDir  = "PLUGIN_UNIX_SOCKET_DIR"
	healthService = "plugin" // go-plugin's GRPCServiceName
	coreVersion   = 1
)

// The channels of go-plugin's StdioData message.
const (
	stdioOut = 1
	stdioErr = 2
)

// inProcess serves a mod in a test's process: no handshake on stdout, no
// stdio pipes, no peer check, no parent watcher. Addr receives the socket's
// address; the server stops when Ctx ends or the client shuts it down.
type inProcess struct {
	Ctx  context.Context
	Addr chan<- net.Addr
}

// pluginServer is the mod's gRPC server and the state of go-plugin's
// services on it.
type pluginServer struct {
	grpc   *grpc.Server
	stdout chan []byte // what the process writes to stdout, for StreamStdio
	stderr chan []byte
}

// peerOptions are the options that let only the host connect.
func peerOptions() ([]grpc.ServerOption, error) {
	opts, err := protocol.PeerServerOptions()
	if err == nil && len(opts) == 0 {
		// The host asked for go-plugin's AutoMTLS, which a host on this
		// platform never does: serving without either check would
		// answer any local process.
		err = errors.New("serve: the host asked for TLS; a mod on this platform checks its host by peer credentials, and serves no TLS")
	}
	return opts, err
}

// servePlugin serves mod over a new unix socket with the gRPC server
// newServer makes, and returns when the host shut it down (or test.Ctx
// ended).
func servePlugin(mod modapi.Mod, newServer func([]grpc.ServerOption) *grpc.Server, _ *slog.Logger, test *inProcess) error {
	lis, err := listen(os.Getenv(envSocketDir))
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer lis.Close()
	s := &pluginServer{grpc: newServer(nil)}
	s.register()
	protocol.RegisterMod(s.grpc, mod)
	if test != nil {
		test.Addr <- lis.Addr()
		stop := context.AfterFunc(test.Ctx, s.grpc.Stop)
		defer stop()
	} else {
		line := fmt.Sprintf("%d|%d|unix|%s|grpc|\n", coreVersion, protocol.Version, lis.Addr().String())
		if _, err := os.Stdout.WriteString(line); err != nil {
			return fmt.Errorf("serve: handshake: %w", err)
		}
		if err := s.redirectStdio(); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		ignoreInterrupt()
	}
	if err := s.grpc.Serve(lis); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// listen opens the socket the host connects to: a new name in dir (the
// system's temporary directory when dir is empty), tried again with
// another while the name is taken. It binds the name itself, with the
// system's largest backlog, where net.Listen would first read that limit
// from a file, and where go-plugin creates and removes a temporary file
// to choose the name: each a part of every mod's start.
func listen(dir string) (net.Listener, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	for try := 0; ; try++ {
		path := filepath.Join(dir, "plugin"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		l, err := listenUnix(path)
		if errors.Is(err, syscall.EADDRINUSE) && try < 10000 {
			continue
		}
		return l, err
	}
}

// listenUnix listens on a new unix socket at path; closing the listener
// removes the socket's file.
func listenUnix(path string) (net.Listener, error) {
	syscall.ForkLock.RLock() // no process started meanwhile inherits fd
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, &net.OpError{Op: "listen", Net: "unix", Addr: &net.UnixAddr{Name: path, Net: "unix"}, Err: os.NewSyscallError("bind", err)}
	}
	// The kernel lowers the backlog to its limit, the one net.Listen reads.
	if err := syscall.Listen(fd, math.MaxInt32); err != nil {
		syscall.Close(fd)
		os.Remove(path)
		return nil, os.NewSyscallError("listen", err)
	}
	f := os.NewFile(uintptr(fd), path)
	l, err := net.FileListener(f)
	f.Close()
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	l.(*net.UnixListener).SetUnlinkOnClose(true)
	return l, nil
}

// ignoreInterrupt keeps SIGINT from ending the mod (as go-plugin's server
// does): a terminal's ^C reaches the whole process group, and the host
// stops its mods itself. A handler, not SIG_IGN, so that the processes a
// mod starts still get it.
func ignoreInterrupt() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	go func() {
		for range ch {
		}
	}()
}

// redirectStdio makes the process's stdout and stderr pipes whose
// contents StreamStdio sends to the host.
func (s *pluginServer) redirectStdio() error {
	s.stdout, s.stderr = make(chan []byte), make(chan []byte)
	for _, std := range []struct {
		f  **os.File
		ch chan []byte
	}{{&os.Stdout, s.stdout}, {&os.Stderr, s.stderr}} {
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		*std.f = w
		go copyChunks(std.ch, r)
	}
	return nil
}

// copyChunks sends what r yields to ch, a chunk at a time, until r ends.
func copyChunks(ch chan<- []byte, r io.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			ch <- append([]byte(nil), buf[:n]...)
		}
		if err != nil {
			return
		}
	}
}

// register adds go-plugin's services to the server.
func (s *pluginServer) register() {
	hs := health.NewServer()
	hs.SetServingStatus(healthService, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s.grpc, hs)
	s.grpc.RegisterService(&grpc.ServiceDesc{
		ServiceName: "plugin.GRPCController",
		HandlerType: (*any)(nil),
		Methods:     []grpc.MethodDesc{{MethodName: "Shutdown", Handler: s.shutdown}},
	}, s)
	s.grpc.RegisterService(&grpc.ServiceDesc{
		ServiceName: "plugin.GRPCStdio",
		HandlerType: (*any)(nil),
		Streams:     []grpc.StreamDesc{{StreamName: "StreamStdio", Handler: s.streamStdio, ServerStreams: true}},
	}, s)
	s.grpc.RegisterService(&grpc.ServiceDesc{
		ServiceName: "plugin.GRPCBroker",
		HandlerType: (*any)(nil),
		Streams:     []grpc.StreamDesc{{StreamName: "StartStream", Handler: holdBroker, ServerStreams: true, ClientStreams: true}},
	}, s)
}

// shutdown is plugin.GRPCController's Shutdown: the host is done with the
// mod. As go-plugin's server does, it stops the server at once, which ends
// the running calls; the host drains them before asking.
func (s *pluginServer) shutdown(_ any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
	in := new(emptypb.Empty)
	if err := dec(in); err != nil {
		return nil, err
	}
	stop := func(context.Context, any) (any, error) {
		s.grpc.Stop()
		return new(emptypb.Empty), nil
	}
	if interceptor == nil {
		return stop(ctx, in)
	}
	return interceptor(ctx, in, &grpc.UnaryServerInfo{Server: s, FullMethod: "/plugin.GRPCController/Shutdown"}, stop)
}

// streamStdio is plugin.GRPCStdio's StreamStdio: the process's output,
// chunk by chunk, as StdioData messages, until the host hangs up.
func (s *pluginServer) streamStdio(_ any, stream grpc.ServerStream) error {
	if err := stream.RecvMsg(new(emptypb.Empty)); err != nil {
		return err
	}
	for {
		var data []byte
		var channel uint64
		select {
		case data = <-s.stdout:
			channel = stdioOut
		case data = <-s.stderr:
			channel = stdioErr
		case <-stream.Context().Done():
			return nil
		}
		if err := stream.SendMsg(stdioData(channel, data)); err != nil {
			return err
		}
	}
}

// stdioData is go-plugin's StdioData message {channel = 1; data = 2}. It
// travels as an empty message carrying the fields as unknown ones: they
// are marshalled as they are, and the message's type is not on the wire.
func stdioData(channel uint64, data []byte) *emptypb.Empty {
	b := protowire.AppendTag(nil, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, channel)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, data)
	m := new(emptypb.Empty)
	m.ProtoReflect().SetUnknown(b)
	return m
}

// holdBroker is plugin.GRPCBroker's StartStream, which go-plugin's client
// opens on every connection: a mod brokers no connections, so it reads
// (and drops) what the host sends until the host hangs up.
func holdBroker(_ any, stream grpc.ServerStream) error {
	for {
		if err := stream.RecvMsg(new(emptypb.Empty)); err != nil {
			return nil
		}
	}
}

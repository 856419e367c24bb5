package bare

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/modkit/modkit/bench/internal/echo"
)

// Handshake is shared by the plugin and its host.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  1,
	MagicCookieKey:   "MODKIT_BENCH_BARE_PLUGIN",
	MagicCookieValue: "echo",
}

const (
	pluginName = "echo"
	echoMethod = "/modkit.bench.Echo/Echo"
)

// Plugin is the go-plugin definition of the echo service.
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
}

// GRPCServer registers the echo service.
func (Plugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	s.RegisterService(&serviceDesc, echoServer{})
	return nil
}

// GRPCClient returns a *Client.
func (Plugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, cc *grpc.ClientConn) (any, error) {
	return &Client{cc: cc}, nil
}

type echoService interface {
	Echo(ctx context.Context, in *wrapperspb.BytesValue) (*wrapperspb.StringValue, error)
}

type echoServer struct{}

// Echo decodes the input and answers with its reply, like every other side.
func (echoServer) Echo(_ context.Context, in *wrapperspb.BytesValue) (*wrapperspb.StringValue, error) {
	var v echo.Input
	if err := json.Unmarshal(in.GetValue(), &v); err != nil {
		return nil, err
	}
	reply, err := echo.Reply(v)
	if err != nil {
		return nil, err
	}
	return wrapperspb.String(reply), nil
}

func echoHandler(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
	in := new(wrapperspb.BytesValue)
	if err := dec(in); err != nil {
		return nil, err
	}
	if interceptor == nil {
		return srv.(echoService).Echo(ctx, in)
	}
	info := &grpc.UnaryServerInfo{Server: srv, FullMethod: echoMethod}
	return interceptor(ctx, in, info, func(ctx context.Context, req any) (any, error) {
		return srv.(echoService).Echo(ctx, req.(*wrapperspb.BytesValue))
	})
}

var serviceDesc = grpc.ServiceDesc{
	ServiceName: "modkit.bench.Echo",
	HandlerType: (*echoService)(nil),
	Methods:     []grpc.MethodDesc{{MethodName: "Echo", Handler: echoHandler}},
	Metadata:    "bench/internal/bare",
}

// Client calls the plugin's echo method.
type Client struct {
	cc *grpc.ClientConn
}

// Echo sends input and returns the plugin's reply.
func (c *Client) Echo(ctx context.Context, input []byte) (string, error) {
	out := new(wrapperspb.StringValue)
	if err := c.cc.Invoke(ctx, echoMethod, wrapperspb.Bytes(input), out); err != nil {
		return "", fmt.Errorf("bare echo: %w", err)
	}
	return out.GetValue(), nil
}

// Serve serves the plugin; the plugin binary's main calls it.
func Serve() {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         plugin.PluginSet{pluginName: Plugin{}},
		GRPCServer:      plugin.DefaultGRPCServer,
		Logger:          hclog.NewNullLogger(),
	})
}

// Checksum returns the SHA-256 of the binary at path, for [Start].
func Checksum(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("checksum %s: %w", path, err)
	}
	return h.Sum(nil), nil
}

// Process is a running plugin.
type Process struct {
	*Client
	pc *plugin.Client
}

// Start runs the plugin binary at path, whose SHA-256 is sum, over mutual
// TLS, and connects to it.
func Start(path string, sum []byte) (*Process, error) {
	cmd := exec.Command(path)
	setParentDeathSignal(cmd)
	pc := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  Handshake,
		Plugins:          plugin.PluginSet{pluginName: Plugin{}},
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		SecureConfig:     &plugin.SecureConfig{Checksum: sum, Hash: sha256.New()},
		AutoMTLS:         true,
		Logger:           hclog.NewNullLogger(),
	})
	rpc, err := pc.Client()
	if err != nil {
		pc.Kill()
		return nil, fmt.Errorf("start bare plugin: %w", err)
	}
	raw, err := rpc.Dispense(pluginName)
	if err != nil {
		pc.Kill()
		return nil, fmt.Errorf("start bare plugin: %w", err)
	}
	return &Process{Client: raw.(*Client), pc: pc}, nil
}

// Pid returns the plugin process id.
func (p *Process) Pid() int {
	if rc := p.pc.ReattachConfig(); rc != nil {
		return rc.Pid
	}
	return 0
}

// Close stops the plugin process.
func (p *Process) Close() { p.pc.Kill() }

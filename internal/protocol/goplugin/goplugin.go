// Package goplugin is what a host hands hashicorp/go-plugin to start a mod
// and talk to it: the handshake, the plugin sets and a logger. It is apart
// from package protocol so that a mod on Linux or macOS, which speaks
// go-plugin's protocol by itself (package serve), links none of go-plugin.
package goplugin

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/pb"
)

// Handshake is shared by the host and every mod. A binary started without the
// magic cookie (by hand, say) prints a message and exits.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  protocol.Version,
	MagicCookieKey:   protocol.MagicCookieKey,
	MagicCookieValue: protocol.MagicCookieValue,
}

// GRPCPlugin adapts a mod to go-plugin. The serving side sets Impl; the
// host leaves it nil and gets a [*protocol.GRPCClient], a [modapi.Mod], from
// Dispense.
type GRPCPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	// Impl is the mod in the mod process.
	Impl modapi.Mod
	// MaxMessageBytes is the largest message the host's connection sends;
	// see [protocol.GRPCClient.MaxSendBytes].
	MaxMessageBytes int
}

// GRPCServer implements plugin.GRPCPlugin.
func (p *GRPCPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	protocol.RegisterMod(s, p.Impl)
	return nil
}

// GRPCClient implements plugin.GRPCPlugin.
func (p *GRPCPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &protocol.GRPCClient{PB: pb.NewModClient(c), Features: pb.NewModFeaturesClient(c), MaxSendBytes: p.MaxMessageBytes}, nil
}

// PluginSets returns the versioned plugin sets: server is nil on the host
// side.
func PluginSets(server modapi.Mod) map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		protocol.Version: {protocol.PluginName: &GRPCPlugin{Impl: server}},
	}
}

// HostPluginSets returns the versioned plugin sets of a host whose
// connections carry messages of at most maxMsg bytes each way; use it
// with [protocol.DialOptions].
func HostPluginSets(maxMsg int) map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		protocol.Version: {protocol.PluginName: &GRPCPlugin{MaxMessageBytes: maxMsg}},
	}
}

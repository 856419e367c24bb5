package mcpbridge

import (
	"log/slog"
	"net"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where modhost serves MCP over streamable HTTP.
const HTTPPath = "/mcp"

// NewHTTPHandler serves srv over streamable HTTP, with one MCP session per
// client. Two protections guard a server on a loopback address against web
// pages: a request that reached a loopback address with a Host header naming
// another host is refused with 403 (DNS rebinding protection, from the SDK),
// and so is a browser's cross-origin request (net/http's
// CrossOriginProtection). logger may be nil.
func NewHTTPHandler(srv *mcp.Server, logger *slog.Logger) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Logger: logger})
	return http.NewCrossOriginProtection().Handler(h)
}

// ListenAddr returns the address to listen on for addr, a host:port or a
// bare :port: a missing host means the loopback address 127.0.0.1, never
// every interface.
func ListenAddr(addr string) string {
	h, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if h == "" {
		h = "127.0.0.1"
	}
	return net.JoinHostPort(h, port)
}

package mcpbridge

import (
	"log/slog"
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

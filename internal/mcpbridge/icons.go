package mcpbridge

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/manifest"
)

// mcpIcons are a manifest's icons as MCP lists them (tools/list "icons").
func mcpIcons(icons []manifest.Icon) []mcp.Icon {
	if len(icons) == 0 {
		return nil
	}
	out := make([]mcp.Icon, len(icons))
	for i, ic := range icons {
		out[i] = mcp.Icon{Source: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: mcp.IconTheme(ic.Theme)}
	}
	return out
}

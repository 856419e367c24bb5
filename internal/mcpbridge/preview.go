package mcpbridge

import (
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
)

// ErrNotOffered is ListedTool's error for a tool the bridge does not list:
// one only a client application runs.
var ErrNotOffered = errors.New("modhost mcp does not offer a tool only a client application runs: an MCP client is not that application")

// ListedTool returns the tools/list entry the bridge gives a client for t,
// with its MCP Apps _meta when it has a view, as NewServer lists it; a
// workbench shows it to the tool's author. A tool the bridge does not offer
// gets ErrNotOffered.
func ListedTool(t host.Tool) (*mcp.Tool, error) {
	if !t.Runs.InMod() {
		return nil, ErrNotOffered
	}
	mt, _, err := mcpTool(t)
	if err != nil {
		return nil, err
	}
	if t.HasView {
		mt.Meta = appMeta(AppURI(t.Mod, t.Name))
	}
	return mt, nil
}

// CallToolResult returns the tools/call result the bridge gives a client
// for a call of t that the host answered with res and err, as its handler
// builds it.
func CallToolResult(t host.Tool, res *host.CallResult, err error) *mcp.CallToolResult {
	if err != nil {
		return errorResult(err.Error())
	}
	_, wrapped, merr := mcpTool(t)
	if merr != nil {
		return errorResult(merr.Error())
	}
	return withActions(callResult(res, wrapped), t, res)
}

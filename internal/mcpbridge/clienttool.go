package mcpbridge

import "github.com/modkit/modkit/host"

// inMod returns the tools a call through the bridge can run: all but those
// only a client application runs. An MCP client is not the client
// application those tools are written for, so they are not offered; a
// tool that runs either way is, and runs in its mod.
// The backend's slice is left as it is.
func inMod(tools []host.Tool) []host.Tool {
	out := make([]host.Tool, 0, len(tools))
	for _, t := range tools {
		if t.Runs.InMod() {
			out = append(out, t)
		}
	}
	return out
}

package mcpbridge

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestWantsLogs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		meta mcp.Meta
		want bool
	}{
		{"session, no level set", nil, false},
		{"session, level in _meta", mcp.Meta{mcp.MetaKeyLogLevel: "info"}, true},
		{"2026-07-28 without a level", mcp.Meta{mcp.MetaKeyProtocolVersion: "2026-07-28"}, false},
		{"2026-07-28 with a level", mcp.Meta{mcp.MetaKeyProtocolVersion: "2026-07-28", mcp.MetaKeyLogLevel: "debug"}, true},
	}
	for _, tt := range tests {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: tt.meta}}
		if got := wantsLogs(req); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

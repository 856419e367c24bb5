package main

import (
	"context"
	"strings"
	"testing"
)

func TestServingLine(t *testing.T) {
	tests := []struct{ line, want string }{
		{"modhost: serving MCP at http://127.0.0.1:40123/mcp", "http://127.0.0.1:40123/mcp"},
		{"mcpecho: serving MCP at http://127.0.0.1:5/mcp", "http://127.0.0.1:5/mcp"},
		{"built mod echomod in 1.2s", ""},
	}
	for _, tt := range tests {
		got := ""
		if m := servingLine.FindStringSubmatch(tt.line); m != nil {
			got = m[1]
		}
		if got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestTSFigureWithoutNodeTools(t *testing.T) {
	t.Setenv(nodeToolsEnv, "")
	e := &env{cfg: quickConfig(), tmp: t.TempDir()}
	got := tsFigure(context.Background(), e, tsTarget{url: "http://127.0.0.1:1/mcp"}, tsTarget{url: "http://127.0.0.1:2/mcp"})
	if !strings.Contains(got, "not measured") || !strings.Contains(got, nodeToolsEnv) {
		t.Errorf("got note %q, want it to say the figure was not measured for want of $%s", got, nodeToolsEnv)
	}
}

package main

import (
	"context"
	"errors"
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

// TestNodeToolsMissing: without the node tools, the TypeScript rows are
// skipped, except under CI, where they fail.
func TestNodeToolsMissing(t *testing.T) {
	t.Setenv(nodeToolsEnv, "")
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		e := &env{cfg: quickConfig(), tmp: t.TempDir()}
		_, _, err := tsCompare(context.Background(), e, tsTarget{url: "http://127.0.0.1:1/mcp"}, tsTarget{url: "http://127.0.0.1:2/mcp"})
		var skip *skipped
		if err == nil || !strings.Contains(err.Error(), nodeToolsEnv) || errors.As(err, &skip) != (ci == "") {
			t.Errorf("CI=%q: got %v (skipped: %v), want an error naming $%s, skipped only outside CI", ci, err, errors.As(err, &skip), nodeToolsEnv)
		}
	}
}

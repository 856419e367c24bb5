// Command sdkserver is the baseline of the stdio benchmark: a minimal MCP
// server written directly with the Go SDK, with the same trivial tool as the
// conformance fixture mod's test_simple_text.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "sdkserver", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "test_simple_text",
		Description: "Returns a fixed text. Call it to test text results.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "This is a simple text response for testing."},
		}}, nil, nil
	})
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "sdkserver:", err)
		os.Exit(1)
	}
}

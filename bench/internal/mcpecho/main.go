// Command mcpecho is the minimal MCP server the benchmarks compare modkit
// with: one echo tool, built with the official Go SDK, served over stdio,
// or with -http ADDR over the SDK's stateless streamable HTTP handler at
// http://ADDR/mcp (the URL is printed on stderr once it listens).
//
// The tool's input schema is the one modgen wrote for the echo mod's echo
// tool, so the SDK validates what the modkit host validates.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/bench/internal/echomod"
	"github.com/modkit/modkit/manifest"
)

func main() {
	addr := flag.String("http", "", "serve stateless streamable HTTP on `host:port` instead of stdio")
	flag.Parse()
	if err := run(context.Background(), *addr); err != nil {
		fmt.Fprintln(os.Stderr, "mcpecho:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, addr string) error {
	schema, err := echoSchema()
	if err != nil {
		return err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpecho", Version: "v1.0.0"}, nil)
	tool := &mcp.Tool{
		Name:        "echo",
		Description: "Returns its input as JSON. Call it to measure the cost of a round trip.",
		InputSchema: schema,
	}
	mcp.AddTool(s, tool,
		func(_ context.Context, _ *mcp.CallToolRequest, in echo.Input) (*mcp.CallToolResult, any, error) {
			reply, err := echo.Reply(in)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: reply}}}, nil, nil
		})
	if addr == "" {
		return s.Run(ctx, &mcp.StdioTransport{})
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	fmt.Fprintf(os.Stderr, "mcpecho: serving MCP at http://%s/mcp\n", ln.Addr())
	return http.Serve(ln, mux)
}

// echoSchema is the echo mod's input schema for its echo tool.
func echoSchema() (json.RawMessage, error) {
	m, err := manifest.Decode(echomod.Modkit().Manifest)
	if err != nil {
		return nil, err
	}
	for _, t := range m.Tools {
		if t.Name == "echo" {
			return t.InputSchema, nil
		}
	}
	return nil, fmt.Errorf("echo mod manifest has no echo tool")
}

// Command sdkserver is the baseline of the stdio benchmarks: a minimal MCP
// server written directly with the Go SDK, with the same trivial tool as the
// conformance fixture mod's test_simple_text. With -mods DIR it is the floor
// instead: the tool's handler runs the mod's test_simple_text through
// host.Call, the least any server of mod tools does per call.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

func main() {
	mods := flag.String("mods", "", "run the tool through host.Call of the mod in `DIR`")
	flag.Parse()
	text := func(context.Context) (string, error) { return "This is a simple text response for testing.", nil }
	if *mods != "" {
		h, err := host.Load([]string{*mods}, &host.Options{CacheDir: os.Getenv("MODKIT_CACHE"), Progress: io.Discard})
		if err != nil {
			fmt.Fprintln(os.Stderr, "sdkserver:", err)
			os.Exit(1)
		}
		defer h.Close()
		text = func(ctx context.Context) (string, error) {
			res, err := h.Call(ctx, &host.CallRequest{
				Tool: "test_simple_text", Input: json.RawMessage(`{}`), Session: sdk.Session{ID: "sdkserver"},
			})
			if err != nil {
				return "", err
			}
			return res.Text, nil
		}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "sdkserver", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "test_simple_text",
		Description: "Returns a fixed text. Call it to test text results.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		t, err := text(ctx)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t}}}, nil, nil
	})
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "sdkserver:", err)
		os.Exit(1)
	}
}

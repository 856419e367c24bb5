package mcpbridge_test

import (
	"context"
	"fmt"
	"io"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
)

// Serve a mod's tools to an MCP client, here over in-memory transports.
func ExampleNewServer() {
	h, err := host.Load([]string{crashyDir}, &host.Options{CacheDir: cacheDir, Progress: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close()
	srv, err := mcpbridge.NewServer(h, &mcpbridge.Options{Agent: "echoer"})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, clientTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools.Tools {
		fmt.Println("tool:", t.Name)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "crashy_echo", Arguments: map[string]any{"text": "hello", "times": 2}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("text:", res.Content[0].(*mcp.TextContent).Text)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "crashy_echo", Arguments: map[string]any{"text": "hello", "times": 9}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("isError:", res.IsError)
	// Output:
	// tool: crashy_echo
	// text: hello hello
	// isError: true
}

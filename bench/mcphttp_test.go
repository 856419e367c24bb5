package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// BenchmarkMCPHTTP2026 is mcp_http_2026_vs_gosdk's two sides as go test
// -bench entry points, for profiles of one side:
//
//	go test ./bench -run '^$' -bench MCPHTTP2026/modhost -benchtime 3000x -cpuprofile cpu.out
func BenchmarkMCPHTTP2026(b *testing.B) {
	e := benchEnv(b)
	ctx := context.Background()
	b.Run("modhost", func(b *testing.B) {
		h, err := e.modHost(ctx)
		if err != nil {
			b.Fatal(err)
		}
		srv, err := mcpbridge.NewServer(h, &mcpbridge.Options{Workspace: e.tmp})
		if err != nil {
			b.Fatal(err)
		}
		bridge := srv.NewHTTPHandler(nil)
		defer bridge.Close()
		url, stop := serveLoopback(bridge)
		defer stop()
		cs, err := statelessClient(ctx, "modhost", url)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		runCall(b, echoCall("modhost", cs))
	})
	b.Run("gosdk", func(b *testing.B) {
		plain, err := goSDKEchoServer()
		if err != nil {
			b.Fatal(err)
		}
		url, stop := serveLoopback(mcp.NewStreamableHTTPHandler(
			func(*http.Request) *mcp.Server { return plain }, &mcp.StreamableHTTPOptions{Stateless: true}))
		defer stop()
		cs, err := statelessClient(ctx, "go-sdk", url)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		runCall(b, echoCall("go-sdk", cs))
	})
}

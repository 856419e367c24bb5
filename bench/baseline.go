package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/bench/internal/bare"
	"github.com/modkit/modkit/bench/internal/echo"
)

// wantReply is what every echo must answer for echo.Payload, worked out
// once: checking an answer costs a comparison, not a decode and an encode.
var wantReply = sync.OnceValues(func() (string, error) {
	var in echo.Input
	if err := json.Unmarshal(echo.Payload, &in); err != nil {
		return "", fmt.Errorf("decode payload: %w", err)
	}
	return echo.Reply(in)
})

// checkReply fails when a side answered something else than the echo.
func checkReply(side, got string) error {
	want, err := wantReply()
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("%s: got reply %q, want %q", side, got, want)
	}
	return nil
}

// startBare starts the bare plugin and checks its answer.
func startBare(ctx context.Context, bins *binaries) (*bare.Process, error) {
	p, err := bare.Start(bins.bare, bins.bareSum)
	if err != nil {
		return nil, err
	}
	got, err := p.Echo(ctx, echo.Payload)
	if err == nil {
		err = checkReply("go-plugin", got)
	}
	if err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

func bareCall(p *bare.Process) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := p.Echo(ctx, echo.Payload)
		return err
	}
}

// mcpServer is the MCP echo server, run as a subprocess over stdio.
type mcpServer struct {
	session *mcp.ClientSession
	cmd     *exec.Cmd
}

// startMCP starts the MCP server, initializes the session and checks the
// answer.
func startMCP(ctx context.Context, bins *binaries) (*mcpServer, error) {
	cmd := exec.Command(bins.mcp)
	setParentDeathSignal(cmd)
	client := mcp.NewClient(&mcp.Implementation{Name: "modkit-bench", Version: "v1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("start mcp server: %w", err)
	}
	s := &mcpServer{session: cs, cmd: cmd}
	got, err := s.echo(ctx)
	if err == nil {
		err = checkReply("mcp", got)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *mcpServer) echo(ctx context.Context) (string, error) {
	res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(echo.Payload)})
	if err != nil {
		return "", fmt.Errorf("mcp tools/call: %w", err)
	}
	if len(res.Content) != 1 {
		return "", fmt.Errorf("mcp tools/call: got %d content items, want 1", len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "", fmt.Errorf("mcp tools/call: got %T, want text", res.Content[0])
	}
	if res.IsError {
		return "", fmt.Errorf("mcp tools/call: tool failed: %s", text.Text)
	}
	return text.Text, nil
}

func (s *mcpServer) call(ctx context.Context) error {
	_, err := s.echo(ctx)
	return err
}

// pid returns the server process id.
func (s *mcpServer) pid() int { return s.cmd.Process.Pid }

// Close ends the session, which stops the server.
func (s *mcpServer) Close() error { return s.session.Close() }

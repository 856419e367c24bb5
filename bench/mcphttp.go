package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/bench/internal/echomod"
	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/manifest"
)

// statelessVersion is the protocol revision both sides of
// mcp_http_2026_vs_gosdk speak: no session, every request on its own.
const statelessVersion = "2026-07-28"

// mcpHTTP2026VsGoSDK compares a stateless 2026-07-28 tools/call of the echo
// tool through modhost's HTTP endpoint (mcpbridge's handler, the echo mod in
// its process) with the same call to go-sdk's stateless streamable HTTP
// server with the echo tool in process, both on loopback, both called by
// go-sdk's client.
func mcpHTTP2026VsGoSDK(ctx context.Context, e *env) (row, error) {
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	modkitURL, stopModkit, err := serveBridge(h, e.tmp)
	if err != nil {
		return row{}, err
	}
	defer stopModkit()

	plain, err := goSDKEchoServer()
	if err != nil {
		return row{}, err
	}
	sdkURL, stopSDK := serveLoopback(mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return plain }, &mcp.StreamableHTTPOptions{Stateless: true}))
	defer stopSDK()

	sa, sb, err := pairStatelessEcho(ctx, e.cfg, modkitURL, sdkURL)
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("modhost HTTP 2026-07-28", sa), latencySide("go-sdk stateless HTTP", sb), roundRatios(sa, sb), goal{}), nil
}

// serveLoopback serves handler at mcpbridge.HTTPPath on a loopback port.
func serveLoopback(handler http.Handler) (url string, stop func()) {
	mux := http.NewServeMux()
	mux.Handle(mcpbridge.HTTPPath, handler)
	ts := httptest.NewServer(mux)
	return ts.URL + mcpbridge.HTTPPath, ts.Close
}

// serveBridge serves h's tools over modhost's HTTP endpoint on a loopback
// port; stop closes the server and the handler.
func serveBridge(h *host.Host, workspace string) (url string, stop func(), err error) {
	srv, err := mcpbridge.NewServer(h, &mcpbridge.Options{Workspace: workspace})
	if err != nil {
		return "", nil, err
	}
	handler := srv.NewHTTPHandler(nil)
	url, stopServer := serveLoopback(handler)
	return url, func() { stopServer(); handler.Close() }, nil
}

// statelessClient connects go-sdk's client at protocol 2026-07-28 and
// checks that it got no session and that the echo answers.
func statelessClient(ctx context.Context, side, url string) (*mcp.ClientSession, error) {
	return statelessTransport(ctx, side, &mcp.StreamableClientTransport{Endpoint: url})
}

// statelessClientAuth is statelessClient whose requests carry the token
// oauth gives.
func statelessClientAuth(ctx context.Context, side, url string, oauth auth.OAuthHandler) (*mcp.ClientSession, error) {
	return statelessTransport(ctx, side, &mcp.StreamableClientTransport{Endpoint: url, OAuthHandler: oauth})
}

// statelessTransport is statelessClient over t.
func statelessTransport(ctx context.Context, side string, t *mcp.StreamableClientTransport) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "modkit-bench", Version: "v1.0.0"}, nil)
	cs, err := client.Connect(ctx, t,
		&mcp.ClientSessionOptions{ProtocolVersion: statelessVersion})
	if err != nil {
		return nil, fmt.Errorf("%s: connect: %w", side, err)
	}
	if v := cs.InitializeResult().ProtocolVersion; v != statelessVersion || cs.ID() != "" {
		cs.Close()
		return nil, fmt.Errorf("%s: protocol %s, session %q; want %s without a session", side, v, cs.ID(), statelessVersion)
	}
	if err := checkEcho(ctx, side, cs); err != nil {
		cs.Close()
		return nil, err
	}
	return cs, nil
}

// pairStatelessEcho measures echo calls through modhost's and go-sdk's
// stateless HTTP endpoints, each called by its own go-sdk client.
func pairStatelessEcho(ctx context.Context, cfg config, modURL, sdkURL string) (sa, sb *sample, err error) {
	a, err := statelessClient(ctx, "modhost", modURL)
	if err != nil {
		return nil, nil, err
	}
	defer a.Close()
	b, err := statelessClient(ctx, "go-sdk", sdkURL)
	if err != nil {
		return nil, nil, err
	}
	defer b.Close()
	return pairCalls(ctx, cfg, echoCall("modhost", a), echoCall("go-sdk", b))
}

// echoCall calls the echo tool and fails unless it succeeded, as the
// timed calls of every side do: what it answered is checked once, before
// timing, by checkEcho.
func echoCall(side string, cs *mcp.ClientSession) call {
	return func(ctx context.Context) error {
		_, err := callEcho(ctx, side, cs)
		return err
	}
}

// checkEcho calls the echo tool and checks its answer.
func checkEcho(ctx context.Context, side string, cs *mcp.ClientSession) error {
	res, err := callEcho(ctx, side, cs)
	if err != nil {
		return err
	}
	if len(res.Content) != 1 {
		return fmt.Errorf("%s: tools/call: got %d content items, want 1", side, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return fmt.Errorf("%s: tools/call: got %T, want text", side, res.Content[0])
	}
	return checkReply(side, text.Text)
}

// callEcho calls the echo tool; a tool error or a result without content
// is an error.
func callEcho(ctx context.Context, side string, cs *mcp.ClientSession) (*mcp.CallToolResult, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(echo.Payload)})
	if err != nil {
		return nil, fmt.Errorf("%s: tools/call: %w", side, err)
	}
	if res.IsError || len(res.Content) == 0 {
		return nil, fmt.Errorf("%s: tools/call: an error or no content", side)
	}
	return res, nil
}

// goSDKEchoServer is go-sdk's server with the echo tool in process, its
// input schema the one modgen wrote for the echo mod's echo tool, as
// internal/mcpecho serves it over stdio.
func goSDKEchoServer() (*mcp.Server, error) {
	m, err := manifest.Decode(echomod.Modkit().Manifest)
	if err != nil {
		return nil, err
	}
	var schema json.RawMessage
	for _, t := range m.Tools {
		if t.Name == "echo" {
			schema = t.InputSchema
		}
	}
	if schema == nil {
		return nil, fmt.Errorf("echo mod manifest has no echo tool")
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpecho", Version: "v1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "echo",
		Description: "Returns its input as JSON. Call it to measure the cost of a round trip.",
		InputSchema: schema,
	}, func(_ context.Context, _ *mcp.CallToolRequest, in echo.Input) (*mcp.CallToolResult, any, error) {
		reply, err := echo.Reply(in)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: reply}}}, nil, nil
	})
	return s, nil
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// runMCP serves the loaded mods' tools over the Model Context Protocol: on
// stdin and stdout, or with --http ADDR over streamable HTTP at
// http://ADDR/mcp. It serves until the client closes stdin (stdio), or until
// an interrupt or SIGTERM.
func runMCP(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	addr := fs.String("http", "", "serve streamable HTTP on `host:port` instead of stdio; the host defaults to 127.0.0.1")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() > 0 {
		return e.fail(usagef("mcp: unexpected argument %q", fs.Arg(0)))
	}
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()
	srv, err := mcpbridge.NewServer(h, &mcpbridge.Options{Agent: e.agent, Workspace: e.workspace, Version: buildVersion()})
	if err != nil {
		return e.fail(err)
	}
	if os.Getenv("GOGC") == "" {
		// The SDK decodes every JSON value with a fresh decoder and buffer, so
		// a busy session collects garbage often, and each collection scans
		// the host's heap too. The heap is a few megabytes: trading some of
		// it for fewer collections takes about 7% off a trivial call.
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *addr == "" {
		err = mcpbridge.ServeStdio(ctx, srv, e.stdin, e.stdout)
	} else {
		err = serveHTTP(ctx, srv, *addr, e.stderr)
	}
	if err != nil {
		return e.fail(fmt.Errorf("mcp: %w", err))
	}
	return exitOK
}

// buildVersion is modhost's module version, "devel" when built from a
// checkout.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// serveHTTP serves streamable HTTP on addr until ctx is done. It prints the
// endpoint's URL on stderr once it listens, so that ":0" can be used.
func serveHTTP(ctx context.Context, srv *mcp.Server, addr string, stderr io.Writer) error {
	ln, err := net.Listen("tcp", mcpbridge.ListenAddr(addr))
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(mcpbridge.HTTPPath, mcpbridge.NewHTTPHandler(srv, nil))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "modhost: serving MCP at http://%s%s\n", ln.Addr(), mcpbridge.HTTPPath)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Open event streams never end by themselves: give requests a moment,
	// then close what is left.
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	return nil
}

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"os/signal"
	"runtime"
	"time"

	"github.com/modkit/modkit/internal/devserver"
	"github.com/modkit/modkit/internal/modlock"
)

// pollInterval is how often modhost dev looks for edits of the mods'
// sources.
const pollInterval = 300 * time.Millisecond

func runDev(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("dev", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen on this address (loopback unless it says otherwise)")
	open := fs.Bool("open", false, "open the page in a browser")
	metricsAddr := fs.String("metrics-addr", "", "serve metrics in Prometheus text format at http://`host:port`/metrics")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() != 0 {
		return e.fail(usagef("dev: want no arguments"))
	}
	// The page shows each call's spans as a timeline: dev always traces.
	spans := devserver.NewSpans()
	tel, stopTelemetry, err := e.startTelemetry(ctx, *metricsAddr != "", spans)
	if err != nil {
		return e.fail(fmt.Errorf("dev: %w", err))
	}
	defer stopTelemetry()
	if *metricsAddr != "" {
		if err := e.serveMetrics(ctx, *metricsAddr, tel); err != nil {
			return e.fail(usagef("dev: %v", err))
		}
	}
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	if e.agent != "" {
		if _, err := h.Tools(e.agent); err != nil {
			h.Close()
			return e.fail(err)
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		h.Close()
		return e.fail(fmt.Errorf("dev: %w", err))
	}
	token := make([]byte, 24)
	rand.Read(token)
	srv, err := devserver.New(h, &devserver.Options{
		Token:   hex.EncodeToString(token),
		Addr:    ln.Addr().String(),
		Session: e.session("modhost-dev"),
		Agent:   e.agent,
		Dirs:    e.mods,
		Load:    e.lockFollower(ctx),
		Files:   []string{modlock.FileName},
		Spans:   spans,
		// A failed reload is shown on the page, and said on stderr.
		Logger: slog.New(e.logHandler(slog.LevelInfo)),
	})
	if err != nil {
		ln.Close()
		h.Close()
		return e.fail(err)
	}
	defer srv.Close()
	ctx, stop := signal.NotifyContext(ctx, endingSignals...)
	defer stop()
	srv.Watch(ctx, pollInterval)
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		fmt.Fprintf(e.stderr, "modhost: warning: serving beyond this machine on %s: whoever can reach it and has the URL runs the mods' tools\n", ln.Addr())
	}
	url := fmt.Sprintf("http://%s/?token=%s", ln.Addr(), hex.EncodeToString(token))
	fmt.Fprintf(e.stderr, "modhost: inspector at %s\n", url)
	if *open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(e.stderr, "modhost: open a browser: %v\n", err)
		}
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return e.fail(fmt.Errorf("dev: %w", err))
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(e.stderr, "modhost: dev: %v\n", err)
	}
	hs.Close()
	return exitOK
}

// openBrowser opens url in the desktop's browser.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

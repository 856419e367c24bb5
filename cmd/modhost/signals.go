package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// endingSignals are the signals that end modhost: each cancels what runs,
// so that the mods stop and their socket directories are removed, however
// modhost is ended (Ctrl-C, SIGTERM, a closed terminal, Ctrl-\).
var endingSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// untilSignal returns ctx cancelled by the first ending signal. After it,
// the signals are the system's again: a second one ends modhost at once.
func untilSignal(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(ctx, endingSignals...)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/modlock"
	"github.com/modkit/modkit/internal/modreload"
)

// watchInterval is how often a server polls the mods' sources and
// mods.lock, besides the file events it hears of.
const watchInterval = modreload.DefaultInterval

// followMods watches, until ctx ends, the sources of the mods given by
// --mods and mods.lock, and serves each change from live: an edited mod
// is generated again (as go generate would), a changed mods.lock is
// resolved again, the mods are loaded afresh and the changed ones built
// and started; then serve makes the new host serve (registering its
// lists). A change that fails leaves the old host serving, and stderr
// says why; until it is mended, no later change is served either (the
// failed mod would be served broken), and each is reported.
func (e *env) followMods(ctx context.Context, live *host.Live, interval time.Duration, serve func(next *host.Host) error) {
	var own []string
	for _, d := range e.mods {
		if !slices.Contains(e.installed, d) {
			own = append(own, d)
		}
	}
	installed := e.installed
	// pending are the directories changed since the last reload served.
	var pending []string
	modreload.Watch(ctx, &modreload.Options{Dirs: own, Files: []string{modlock.FileName}, Interval: interval},
		func(paths []string) {
			locked := installed
			for _, p := range paths {
				if p != modlock.FileName {
					pending = appendNew(pending, p)
					continue
				}
				dirs, err := lockedMods(ctx, e.stderr)
				if err != nil {
					fmt.Fprintf(e.stderr, "modhost: reload: %v; serving the mods as they were\n", err)
					return
				}
				locked = dirs
				for _, d := range dirs {
					if !slices.Contains(installed, d) {
						pending = appendNew(pending, d)
					}
				}
			}
			var problems []string
			for _, d := range pending {
				if slices.Contains(own, d) {
					for _, p := range modreload.Generate(d) {
						problems = append(problems, "modhost: reload: "+d+": "+p)
					}
				}
			}
			if len(problems) > 0 {
				fmt.Fprintf(e.stderr, "%s\nmodhost: serving the mods as they were\n", strings.Join(problems, "\n"))
				return
			}
			load := func() (*host.Host, error) {
				e.mods, e.installed = append(slices.Clone(own), locked...), locked
				return e.load()
			}
			next, err := live.Prepare(ctx, load, pending)
			if err == nil {
				if err = serve(next); err != nil {
					next.Close()
				}
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "modhost: reload: %v\nmodhost: serving the mods as they were\n", err)
				return
			}
			fmt.Fprintf(e.stderr, "modhost: reloaded %s\n", strings.Join(pending, ", "))
			pending, installed = nil, locked
		})
}

// appendNew appends s to list unless list holds it.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

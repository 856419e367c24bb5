package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/freshness"
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
// lists). A mod of --mods whose generated files were out of date when
// live's host loaded it (edited without go generate) is served so at once,
// as modhost dev does. A change that fails leaves the old host serving,
// and stderr says why; until it is mended, no later change is served
// either (the failed mod would be served broken), and each is reported.
func (e *env) followMods(ctx context.Context, live *host.Live, interval time.Duration, serve func(next *host.Host) error) {
	own := e.ownMods()
	// pending are the directories changed since the last reload served.
	var pending []string
	modreload.Watch(ctx, &modreload.Options{Dirs: own, Files: []string{modlock.FileName}, Stale: staleMods(live, own), Interval: interval},
		func(paths []string) {
			for _, p := range paths {
				if p != modlock.FileName {
					pending = appendNew(pending, p)
					continue
				}
				added, err := e.relock(ctx, own)
				if err != nil {
					fmt.Fprintf(e.stderr, "modhost: reload: %v\nmodhost: serving the mods as they were\n", err)
					return
				}
				for _, d := range added {
					pending = appendNew(pending, d)
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
			next, err := live.Prepare(ctx, e.load, pending)
			if err == nil {
				if err = serve(next); err != nil {
					next.Close()
				}
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "modhost: reload: %v\nmodhost: serving the mods as they were\n", err)
				return
			}
			what := strings.Join(pending, ", ")
			if what == "" {
				what = "the mods of " + modlock.FileName
			}
			fmt.Fprintf(e.stderr, "modhost: reloaded %s\n", what)
			pending = nil
		})
}

// staleMods returns the mods among own whose generated files live's host
// found out of date.
func staleMods(live *host.Live, own []string) []string {
	var stale []string
	for _, e := range live.Unavailable() {
		if errors.Is(e, freshness.ErrStale) && slices.Contains(own, e.Dir) {
			stale = append(stale, e.Dir)
		}
	}
	return stale
}

// ownMods returns the mods given by --mods: those not installed from
// mods.lock.
func (e *env) ownMods() []string {
	var own []string
	for _, d := range e.mods {
		if !slices.Contains(e.installed, d) {
			own = append(own, d)
		}
	}
	return own
}

// relock resolves mods.lock again: from then on e loads own and the mods
// it pins. added are the directories of the mods it pins now and did not
// before (added, or at another version).
func (e *env) relock(ctx context.Context, own []string) (added []string, err error) {
	locked, err := lockedMods(ctx, e.stderr)
	if err != nil {
		return nil, err
	}
	for _, d := range locked {
		if !slices.Contains(e.installed, d) {
			added = append(added, d)
		}
	}
	e.mods, e.installed = append(slices.Clone(own), locked...), locked
	return added, nil
}

// lockFollower is a load function for a server that follows mods.lock:
// when the file changed since the last load, it is resolved again
// first. Its calls must not overlap.
func (e *env) lockFollower(ctx context.Context) func() (*host.Host, error) {
	own := e.ownMods()
	last, _ := os.ReadFile(modlock.FileName)
	return func() (*host.Host, error) {
		if now, _ := os.ReadFile(modlock.FileName); !bytes.Equal(now, last) {
			if _, err := e.relock(ctx, own); err != nil {
				return nil, err
			}
			last = now
		}
		return e.load()
	}
}

// appendNew appends s to list unless list holds it.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

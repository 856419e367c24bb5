package modreload

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/modgen/load"
)

// DefaultInterval is how often Watch polls by default.
const DefaultInterval = 500 * time.Millisecond

// quiet is how long Watch waits after a file event for the burst of events
// an editor's save makes to end.
const quiet = 50 * time.Millisecond

// Options configure Watch. A nil *Options watches nothing.
type Options struct {
	// Dirs are mod directories: their hand-written Go files and images
	// (icons) are watched, not tests nor the file modgen writes.
	Dirs []string
	// Files are single files watched whole, such as mods.lock; one that
	// does not exist yet is watched for its creation.
	Files []string
	// Stale are paths among Dirs and Files reported changed at the start,
	// before any edit: mods edited before the server began.
	Stale []string
	// Interval is how often Watch polls. Default DefaultInterval.
	Interval time.Duration
	// Logger receives what Watch cannot watch. Default: discard.
	Logger *slog.Logger
}

// Watch looks at the directories and files, then, until ctx ends, calls
// changed, from one goroutine, with those whose contents changed, in the
// order Options gives them. It returns once it has looked, so a change
// after it returns is seen.
func Watch(ctx context.Context, opts *Options, changed func(paths []string)) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	paths := append(slices.Clone(o.Dirs), o.Files...)
	snaps := map[string]string{}
	for _, p := range paths {
		snaps[p] = o.snapshot(p)
	}
	var events <-chan fsnotify.Event
	var errs <-chan error
	w, err := fsnotify.NewWatcher()
	if err != nil {
		o.Logger.Info("no file events; polling only", "error", err)
	} else {
		for _, p := range paths {
			d := p
			if slices.Contains(o.Files, p) {
				d = filepath.Dir(p) // a file replaced by a rename is seen
			}
			if err := w.Add(d); err != nil {
				o.Logger.Info("no file events; polling", "path", d, "error", err)
			}
		}
		events, errs = w.Events, w.Errors
	}
	go func() {
		if w != nil {
			defer w.Close()
		}
		poll := time.NewTicker(o.Interval)
		defer poll.Stop()
		settle := time.NewTimer(quiet)
		settle.Stop()
		if len(o.Stale) > 0 {
			changed(o.Stale)
		}
		for {
			select {
			case <-ctx.Done():
				return
			case <-events:
				settle.Reset(quiet)
				continue
			case err := <-errs:
				o.Logger.Info("file events", "error", err)
				continue
			case <-poll.C:
			case <-settle.C:
			}
			var diff []string
			for _, p := range paths {
				if snap := o.snapshot(p); snap != snaps[p] {
					snaps[p] = snap
					diff = append(diff, p)
				}
			}
			if len(diff) > 0 && ctx.Err() == nil {
				changed(diff)
			}
		}
	}()
}

// snapshot digests a watched file, or a mod directory's hand-written Go
// files, names and contents.
func (o *Options) snapshot(p string) string {
	if slices.Contains(o.Files, p) {
		data, err := os.ReadFile(p)
		if err != nil {
			return "error: " + err.Error()
		}
		sum := sha256.Sum256(data)
		return string(sum[:])
	}
	return dirSnapshot(p)
}

// dirSnapshot digests the mod's hand-written Go files in dir and its
// images (its icons), names and contents: a save that changes nothing changes no snapshot, and a change
// always does, however close in time to the one before (file times are
// coarse).
func dirSnapshot(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "error: " + err.Error()
	}
	h := sha256.New()
	for _, e := range entries {
		n := e.Name()
		goFile := strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && n != load.GeneratedFile
		if !goFile && !freshness.IsImage(n) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			data = []byte("error: " + err.Error())
		}
		fmt.Fprintf(h, "%s %d\n", n, len(data))
		h.Write(data)
	}
	return string(h.Sum(nil))
}

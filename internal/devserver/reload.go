package devserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/modgen/build"
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

// quiet is how long Watch waits after a file event for the burst of events
// an editor's save makes to end.
const quiet = 50 * time.Millisecond

// Watch looks at each mod directory's Go sources, then, until ctx ends,
// reloads the mod whose sources changed. It learns of changes from the
// operating system's file events (fsnotify), each burst of them compared
// against the sources once it is quiet, and also polls every interval, for
// file systems that send no events. It returns once it has looked, so an
// edit after it returns is seen. A mod whose generated files are out of
// date when it begins, edited without go generate, is reloaded at once, as
// a save would reload it.
func (s *Server) Watch(ctx context.Context, interval time.Duration) {
	stale := s.staleDirs()
	snaps := map[string]string{}
	for _, d := range s.opts.Dirs {
		snaps[d] = snapshot(d)
	}
	var events <-chan fsnotify.Event
	var errs <-chan error
	w, err := fsnotify.NewWatcher()
	if err != nil {
		s.opts.Logger.Info("no file events; polling only", "error", err)
	} else {
		for _, d := range s.opts.Dirs {
			if err := w.Add(d); err != nil {
				s.opts.Logger.Info("no file events for a mod; polling it", "dir", d, "error", err)
			}
		}
		events, errs = w.Events, w.Errors
	}
	go func() {
		if w != nil {
			defer w.Close()
		}
		poll := time.NewTicker(interval)
		defer poll.Stop()
		settle := time.NewTimer(quiet)
		settle.Stop()
		for _, d := range stale {
			if err := s.Reload(ctx, d); err != nil {
				s.opts.Logger.Info("reload failed", "dir", d, "error", err)
			}
		}
		for {
			select {
			case <-ctx.Done():
				return
			case <-events:
				settle.Reset(quiet)
				continue
			case err := <-errs:
				s.opts.Logger.Info("file events", "error", err)
				continue
			case <-poll.C:
			case <-settle.C:
			}
			for _, d := range s.opts.Dirs {
				if snap := snapshot(d); snap != snaps[d] {
					snaps[d] = snap
					if err := s.Reload(ctx, d); err != nil {
						s.opts.Logger.Info("reload failed", "dir", d, "error", err)
					}
				}
			}
		}
	}()
}

// staleDirs returns the mod directories whose generated files the host
// found out of date.
func (s *Server) staleDirs() []string {
	h, done := s.host()
	defer done()
	var dirs []string
	for _, e := range h.Unavailable() {
		if errors.Is(e, freshness.ErrStale) && slices.Contains(s.opts.Dirs, e.Dir) {
			dirs = append(dirs, e.Dir)
		}
	}
	return dirs
}

// snapshot digests the mod's hand-written Go files, names and contents:
// a save that changes nothing changes no snapshot, and a change always
// does, however close in time to the one before (file times are coarse).
func snapshot(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "error: " + err.Error()
	}
	h := sha256.New()
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || n == load.GeneratedFile {
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

// Reload regenerates the mod in dir, loads the mods afresh, and builds and
// starts that mod. When all of it succeeds the new host replaces the old
// one, which closes once its calls in flight have ended; otherwise the old
// host keeps serving and the page shows the errors. Either way the page is
// told.
func (s *Server) Reload(ctx context.Context, dir string) error {
	be := s.rebuild(ctx, dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.publish("state")
	if be != nil {
		s.builds[dir] = be
		return fmt.Errorf("%s: %s", be.Stage, strings.Join(be.Problems, "\n"))
	}
	return nil
}

// rebuild does the work of Reload; it swaps the host on success.
func (s *Server) rebuild(ctx context.Context, dir string) *buildError {
	be := &buildError{Dir: dir, Mod: modID(dir)} // the last generated id, to name the mod
	if ps := generate(dir); len(ps) > 0 {
		be.Stage, be.Problems = "generate", ps
		return be
	}
	if be.Mod = modID(dir); be.Mod == "" {
		be.Stage, be.Problems = "load", []string{"modgen wrote no readable " + manifest.FileName}
		return be
	}
	h, err := s.opts.Load()
	if err != nil {
		be.Stage, be.Problems = "load", []string{err.Error()}
		return be
	}
	for _, e := range h.Unavailable() {
		if e.Dir == dir {
			h.Close()
			be.Stage, be.Problems = "load", lines(e.Error())
			return be
		}
	}
	if err := h.Start(ctx, be.Mod); err != nil {
		h.Close()
		be.Stage, be.Problems = "build", lines(err.Error())
		return be
	}
	s.mu.Lock()
	old := s.gen
	s.gen = &generation{h: h}
	delete(s.builds, dir)
	s.reloads++
	s.mu.Unlock()
	go func() {
		old.calls.Wait()
		old.h.Close()
	}()
	return nil
}

// modID returns the id in the mod's manifest, or "".
func modID(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
	if err != nil {
		return ""
	}
	man, err := manifest.Decode(data)
	if err != nil {
		return ""
	}
	return man.ID
}

// generate runs modgen on the mod in dir, writing the files that changed,
// and returns its problems as file:line:col: message, paths relative to
// dir.
func generate(dir string) []string {
	pkgs, diags, err := load.Packages(dir, ".")
	if err != nil {
		return []string{err.Error()}
	}
	if ps := errorsOf(dir, diags); len(ps) > 0 {
		return ps
	}
	out, diags := build.Mod(pkgs[0])
	if ps := errorsOf(dir, diags); len(ps) > 0 || out == nil {
		if len(ps) == 0 {
			ps = []string{"modgen produced nothing"}
		}
		return ps
	}
	for _, f := range out.Files() {
		if old, err := os.ReadFile(f.Path); err == nil && bytes.Equal(old, f.Data) {
			continue
		}
		if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
			return []string{err.Error()}
		}
	}
	return nil
}

// errorsOf returns the errors among diags. A positionless error, the go
// command's account of a package that does not type-check, is left out
// when the type checker's own errors say where.
func errorsOf(dir string, diags []load.Diag) []string {
	placed := false
	for _, d := range diags {
		placed = placed || !d.Warning && d.Pos.Filename != ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	var out []string
	for _, d := range diags {
		if !d.Warning && (d.Pos.Filename != "" || !placed) {
			out = append(out, d.Format(dir))
		}
	}
	return out
}

// lines splits an error's text into its non-empty lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

package devserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/modreload"
	"github.com/modkit/modkit/manifest"
)

// Watch looks at each mod directory's Go sources, then, until ctx ends,
// reloads the mod whose sources changed (modreload.Watch: file events,
// and a poll every interval for file systems that send none). It returns
// once it has looked, so an edit after it returns is seen. A mod whose
// generated files are out of date when it begins, edited without go
// generate, is reloaded at once, as a save would reload it.
func (s *Server) Watch(ctx context.Context, interval time.Duration) {
	modreload.Watch(ctx, &modreload.Options{Dirs: s.opts.Dirs, Files: s.opts.Files, Stale: s.staleDirs(), Interval: interval, Logger: s.opts.Logger},
		func(paths []string) {
			for _, p := range paths {
				reload := s.Reload
				if slices.Contains(s.opts.Files, p) {
					reload = s.reloadAll
				}
				if err := reload(ctx, p); err != nil {
					s.opts.Logger.Info("reload failed", "path", p, "error", err)
				}
			}
		})
}

// reloadAll loads every mod afresh, file having changed: the new host
// serves when it loads, its mods that cannot run shown as at the start;
// otherwise the old one serves on and the page shows why.
func (s *Server) reloadAll(ctx context.Context, file string) error {
	h, err := s.opts.Load()
	if err == nil {
		_, err = s.live.Swap(h)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.publish("state")
	if err != nil {
		s.builds[file] = &buildError{Dir: file, Stage: "load", Problems: lines(err.Error())}
		return err
	}
	delete(s.builds, file)
	s.reloads++
	return nil
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
	if ps := modreload.Generate(dir); len(ps) > 0 {
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
	if _, err := s.live.Swap(h); err != nil {
		be.Stage, be.Problems = "load", []string{err.Error()}
		return be
	}
	s.mu.Lock()
	delete(s.builds, dir)
	s.reloads++
	s.mu.Unlock()
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

package devserver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/modkit/modkit/internal/modgen/build"
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

// Watch looks at each mod directory's Go sources, then, until ctx ends,
// polls them every interval and reloads the mod whose sources changed. It
// returns once it has looked, so an edit after it returns is seen. A mod is
// one package: a poll stats its few files, which needs no dependency and
// works alike on every platform.
func (s *Server) Watch(ctx context.Context, interval time.Duration) {
	snaps := map[string]string{}
	for _, d := range s.opts.Dirs {
		snaps[d] = snapshot(d)
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
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

// snapshot names the mod's hand-written Go files with their sizes and
// modification times.
func snapshot(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || n == load.GeneratedFile {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "%s %d %d\n", n, fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String()
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
	if ps := generate(dir); len(ps) > 0 {
		return &buildError{Dir: dir, Stage: "generate", Problems: ps}
	}
	data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
	if err != nil {
		return &buildError{Dir: dir, Stage: "load", Problems: []string{err.Error()}}
	}
	man, err := manifest.Decode(data)
	if err != nil {
		return &buildError{Dir: dir, Stage: "load", Problems: []string{err.Error()}}
	}
	be := &buildError{Dir: dir, Mod: man.ID}
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
	if err := h.Start(ctx, man.ID); err != nil {
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

func errorsOf(dir string, diags []load.Diag) []string {
	var out []string
	for _, d := range diags {
		if !d.Warning {
			out = append(out, d.Format(dir))
		}
	}
	sort.Strings(out)
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

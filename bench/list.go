package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/modkit/modkit/bench/internal/echomod"
	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/manifest"
)

// listMods and listTools shape the list100 fleet.
const (
	listMods  = 100
	listTools = 5
)

// writeFleet writes n mod directories under dir, each holding a one-line
// Go package and a manifest generated from it, with listTools tools shaped
// like the echo mod's echo tool, and returns their paths. The mods' ids
// (and so their manifests' bytes) start with prefix, which must be a
// lower-case word: a fleet with a new prefix is one this process never
// loaded.
func writeFleet(dir, prefix string, n int) ([]string, error) {
	base, err := manifest.Decode(echomod.Modkit().Manifest)
	if err != nil {
		return nil, err
	}
	var echoTool *manifest.Tool
	for i := range base.Tools {
		if base.Tools[i].Name == "echo" {
			echoTool = &base.Tools[i]
		}
	}
	if echoTool == nil {
		return nil, fmt.Errorf("echo mod manifest has no echo tool")
	}
	dirs := make([]string, n)
	for i := range dirs {
		id := fmt.Sprintf("%s%03d", prefix, i)
		dirs[i] = filepath.Join(dir, id)
		if err := os.MkdirAll(dirs[i], 0o755); err != nil {
			return nil, err
		}
		src := filepath.Join(dirs[i], id+".go")
		if err := os.WriteFile(src, []byte("package "+id+"\n"), 0o644); err != nil {
			return nil, err
		}
		m := &manifest.Manifest{
			FormatVersion: manifest.FormatVersion,
			ID:            id,
			DisplayName:   "Fleet mod " + id,
			Description:   "One of the mods list100 loads.",
			GoPackage:     "example.com/fleet/" + id,
			SourceHash:    freshness.Files([]string{src}),
		}
		for j := range listTools {
			t := *echoTool
			t.Name = fmt.Sprintf("%s_tool%d", id, j)
			m.Tools = append(m.Tools, t)
		}
		data, err := manifest.Encode(m)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dirs[i], manifest.FileName), data, 0o644); err != nil {
			return nil, err
		}
	}
	return dirs, nil
}

// listFleet loads the fleet and lists every tool, as a host does at start.
func listFleet(dirs []string, opts *host.Options) error {
	h, err := host.Load(dirs, opts)
	if err != nil {
		return err
	}
	defer h.Close()
	if bad := h.Unavailable(); len(bad) > 0 {
		return fmt.Errorf("list100: %v", bad[0])
	}
	tools, err := h.Tools("")
	if err != nil {
		return err
	}
	if got, want := len(tools), len(dirs)*listTools; got != want {
		return fmt.Errorf("list100: got %d tools, want %d", got, want)
	}
	return nil
}

// list100 times first loads: each load reads a fleet written for it, with
// mod ids no load before used, so the host decodes and checks every
// manifest and hashes every mod's sources, as a host started for the first
// time does. Writing the fleet is not timed. A note gives a load of a fleet
// loaded before, whose decoded manifests the host remembers.
func list100(ctx context.Context, e *env) (row, error) {
	dir := filepath.Join(e.tmp, "fleet")
	fleets := 0
	newFleet := func() ([]string, error) {
		fleets++
		return writeFleet(filepath.Join(dir, fmt.Sprint(fleets)), fmt.Sprintf("fleet%dx", fleets), listMods)
	}
	opts := e.hostOptions()
	warm, err := newFleet()
	if err != nil {
		return row{}, err
	}
	// The first load in the process also compiles the manifest schema and
	// warms the page cache; it is not measured.
	if err := listFleet(warm, opts); err != nil {
		return row{}, err
	}
	var s sample
	var cpu time.Duration
	for range e.cfg.rounds {
		ms := make([]float64, e.cfg.lists)
		for i := range ms {
			if err := ctx.Err(); err != nil {
				return row{}, err
			}
			dirs, err := newFleet()
			if err != nil {
				return row{}, err
			}
			// Collect the garbage of writing the fleet and of the loads
			// before, as a host started for the first time has none.
			runtime.GC()
			cpuStart, start := selfCPU(), time.Now()
			if err := listFleet(dirs, opts); err != nil {
				return row{}, err
			}
			ms[i] = float64(time.Since(start)) / float64(time.Millisecond)
			cpu += selfCPU() - cpuStart
		}
		s.add(ms)
	}
	loads := len(s.all())
	xs := s.all()
	a := side{label: fmt.Sprintf("first Load + Tools, %d mods × %d tools", listMods, listTools), unit: "ms",
		p50: percentile(xs, 50), p99: percentile(xs, 99)}
	r := single("", a, s.roundMedians(), goal{})
	again := make([]float64, max(e.cfg.lists, 3))
	for i := range again {
		start := time.Now()
		if err := listFleet(warm, opts); err != nil {
			return row{}, err
		}
		again[i] = float64(time.Since(start)) / float64(time.Millisecond)
	}
	r.notes = []string{fmt.Sprintf("CPU per first load (this process, all threads): %s ms; the same fleet loaded again (manifests remembered): %s ms",
		num(float64(cpu)/float64(time.Millisecond)/float64(loads)), num(percentile(again, 50)))}
	return r, nil
}

package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/modkit/modkit/host"
)

// coldStartPrebuiltVsGoPlugin is coldstart_vs_goplugin from a prebuilt
// cache, as an image's host starts: the cache modhost build makes
// (host.Prebuild), which the host reads without the go command. Each cold
// start runs in a fresh process, as coldstart_vs_goplugin's do.
func coldStartPrebuiltVsGoPlugin(ctx context.Context, e *env) (row, error) {
	dir, err := os.MkdirTemp("", "modkit-bench-prebuilt-")
	if err != nil {
		return row{}, err
	}
	defer os.RemoveAll(dir)
	opts := e.hostOptions()
	opts.CacheDir = filepath.Join(dir, "cache")
	h, err := host.Load([]string{e.modDir}, opts)
	if err != nil {
		return row{}, err
	}
	err = h.Prebuild(ctx, nil)
	h.Close()
	if err != nil {
		return row{}, err
	}
	prebuilt, plugin := e.coldStartJob("modkit", false), e.coldStartJob("goplugin", false)
	prebuilt.CacheDir = opts.CacheDir
	a, b, err := pair(e.cfg.rounds,
		func(int) ([]float64, error) { return coldStarts(ctx, e, prebuilt) },
		func(int) ([]float64, error) { return coldStarts(ctx, e, plugin) })
	if err != nil {
		return row{}, err
	}
	return compare("", msSide("Load + first call, prebuilt", a), msSide("go-plugin start + call", b), roundRatios(a, b), goal{}), nil
}

package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/modkit/modkit/host"
)

// coldStartPrebuiltVsGoPlugin is coldstart_vs_goplugin from a prebuilt
// cache, as an image's host starts: the cache modhost build makes
// (host.Prebuild), which the host reads without the go command.
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
	return coldStartRow(ctx, e, opts, "Load + first call, prebuilt")
}

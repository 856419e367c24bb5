package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/internal/modlock"
)

// defaultBuildDir is where modhost build writes a prebuilt cache when -o
// names none.
const defaultBuildDir = "modcache"

// runBuild builds every mod the host would load (--mods and ./mods.lock)
// into a prebuilt cache, for a host with no go command: an image's.
func runBuild(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	out := fs.String("o", defaultBuildDir, "the `directory` of the prebuilt cache; a host uses it as $MODKIT_CACHE")
	goos := fs.String("goos", "", "build for this `os` (GOOS); default the go command's")
	goarch := fs.String("goarch", "", "build for this `arch`itecture (GOARCH); default the go command's")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() > 0 {
		return e.fail(usagef("build: unexpected argument %q", fs.Arg(0)))
	}
	root, err := filepath.Abs(*out)
	if err != nil {
		return e.fail(usagef("build: -o %s: %v", *out, err))
	}
	// The go commands the host runs read these from the environment.
	for k, v := range map[string]string{"GOOS": *goos, "GOARCH": *goarch} {
		if v != "" {
			os.Setenv(k, v)
		}
	}
	entries, err := modlock.Read(modlock.FileName)
	if err != nil {
		return e.fail(err)
	}
	// The copies of locked modules go into the prebuilt cache, where the
	// host finds them.
	locked, err := modlock.Resolve(ctx, entries, &modlock.Options{Progress: e.stderr, CopyDir: filepath.Join(root, "mods")})
	if err != nil {
		return e.fail(fmt.Errorf("%s: %w", modlock.FileName, err))
	}
	dirs, err := modDirs(e.modsFlag, len(locked) > 0)
	if err != nil {
		return e.fail(usagef("%v", err))
	}
	opts := &host.PrebuildOptions{}
	for i, d := range locked {
		opts.Locked = append(opts.Locked, host.LockedMod{Dir: d, Module: entries[i].Module, Version: entries[i].Version})
	}
	h, err := host.Load(append(dirs, locked...), &host.Options{Progress: e.stderr, CacheDir: root})
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()
	if err := h.Prebuild(ctx, opts); err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(e.stderr, "modhost: build cancelled")
			return exitCancelled
		}
		return e.fail(fmt.Errorf("build: %w", err))
	}
	idx, err := modbuild.ReadIndex(root)
	if err != nil {
		return e.fail(err)
	}
	var ids []string
	for _, m := range idx.Mods {
		ids = append(ids, m.ID)
	}
	fmt.Fprintf(e.stdout, "built %s for %s/%s into %s\n", strings.Join(ids, ", "), idx.GOOS, idx.GOARCH, root)
	return exitOK
}

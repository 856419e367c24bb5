package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/modkit/modkit/internal/modbuild"
)

// cacheRoot is the build cache modhost uses: $MODKIT_CACHE, else the
// host's default.
func cacheRoot() (string, error) {
	if dir := os.Getenv("MODKIT_CACHE"); dir != "" {
		return dir, nil
	}
	return modbuild.DefaultRoot()
}

// runCache shows the build cache's size, or with trim, trims it now.
func runCache(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("cache", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the parts as JSON")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() > 0 {
		if fs.Arg(0) != "trim" {
			return e.fail(usagef("cache: unknown subcommand %q; want trim, or none to show the size", fs.Arg(0)))
		}
		return runCacheTrim(e, fs.Args()[1:])
	}
	root, err := cacheRoot()
	if err != nil {
		return e.fail(err)
	}
	parts, err := modbuild.Usage(root)
	if err != nil {
		return e.fail(err)
	}
	if *asJSON {
		out, _ := json.MarshalIndent(struct {
			Dir   string          `json:"dir"`
			Parts []modbuild.Part `json:"parts"`
		}{root, parts}, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", out)
		return exitOK
	}
	fmt.Fprintf(e.stdout, "build cache %s\n", root)
	var files int
	var bytes int64
	for _, p := range parts {
		if p.Name == "other" && p.Files == 0 {
			continue
		}
		fmt.Fprintf(e.stdout, "  %-18s %7d files %10s\n", p.Name, p.Files, formatBytes(p.Bytes))
		files += p.Files
		bytes += p.Bytes
	}
	fmt.Fprintf(e.stdout, "  %-18s %7d files %10s\n", "total", files, formatBytes(bytes))
	return exitOK
}

// runCacheTrim trims the build cache now.
func runCacheTrim(e *env, args []string) int {
	fs := flag.NewFlagSet("cache trim", flag.ContinueOnError)
	unused := fs.Duration("unused", modbuild.TrimUnused, "remove what went unused this long (at least "+modbuild.MinUnused.String()+")")
	dryRun := fs.Bool("n", false, "count what would be removed, and remove nothing")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() > 0 {
		return e.fail(usagef("cache trim: unexpected argument %q", fs.Arg(0)))
	}
	if *unused < modbuild.MinUnused {
		return e.fail(usagef("cache trim: --unused %s: want at least %s; an entry used within %s may be in use", *unused, modbuild.MinUnused, modbuild.RefreshAfter))
	}
	root, err := cacheRoot()
	if err != nil {
		return e.fail(err)
	}
	if _, err := os.Stat(root); os.IsNotExist(err) {
		fmt.Fprintf(e.stdout, "build cache %s: empty, nothing to trim\n", root)
		return exitOK
	}
	c, err := modbuild.OpenCache(root)
	if err != nil {
		return e.fail(err)
	}
	t, err := c.Trim(time.Now(), &modbuild.TrimOptions{Unused: *unused, DryRun: *dryRun})
	if err != nil {
		return e.fail(err)
	}
	verb := "removed"
	if *dryRun {
		verb = "would remove"
	}
	fmt.Fprintf(e.stdout, "build cache %s: %s %d files and directories unused for %s, %s", root, verb, t.Removed, *unused, formatBytes(t.Freed))
	if t.Busy > 0 {
		fmt.Fprintf(e.stdout, "; skipped %d being built or started", t.Busy)
	}
	fmt.Fprintln(e.stdout)
	return exitOK
}

// formatBytes writes n in the largest binary unit it reaches.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

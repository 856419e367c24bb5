package modbuild

import (
	"slices"
	"strings"
)

// pureGoTags are the build tags every mod binary for Linux is built with:
// the standard library's pure Go DNS resolver and user lookup, so that a
// mod with no cgo of its own links no C library. A statically linked mod
// maps neither libc nor the dynamic loader, about 1.3 MiB less resident
// memory per mod process. A mod with cgo of its own still links libc; only
// the resolver and user lookup stay pure Go. Other systems keep their
// defaults: there a Go program links the system's libraries either way.
var pureGoTags = []string{"netgo", "osusergo"}

// leanTags are the build tags every mod binary is built with: grpcnotrace
// leaves out gRPC's tracing through golang.org/x/net/trace (off unless a
// program sets grpc.EnableTracing and serves its pages over HTTP, which a
// mod's process never does), and with it html/template and text/template:
// about 0.4 MiB less binary, mapped by every mod process, and their init.
var leanTags = []string{"grpcnotrace"}

// leanLinkFlags are the linker flags of every mod binary, unless GOFLAGS
// sets its own -ldflags, which a -ldflags flag on the command line would
// replace: no symbol table and no DWARF, a third of the file, which the
// host's checksum reads before every start. A mod's panics and profiles
// keep their function names and lines (the runtime's own tables).
const leanLinkFlags = "-ldflags=-s -w"

// BuildFlags returns the flags a mod's go list and go build add for the
// target goos: a -tags flag with the tags goflags (GOFLAGS) sets, which a
// -tags flag on the command line would replace, pureGoTags on Linux and
// leanTags; and leanLinkFlags unless goflags sets -ldflags.
func BuildFlags(goos, goflags string) []string {
	var tags []string
	ldflags := false
	for _, f := range strings.Fields(goflags) {
		f = strings.TrimPrefix(strings.TrimPrefix(f, "-"), "-")
		if v, ok := strings.CutPrefix(f, "tags="); ok {
			tags = tags[:0] // the last -tags in GOFLAGS wins
			for _, t := range strings.Split(v, ",") {
				if t = strings.TrimSpace(t); t != "" {
					tags = append(tags, t)
				}
			}
		}
		ldflags = ldflags || f == "ldflags" || strings.HasPrefix(f, "ldflags=")
	}
	add := leanTags
	if goos == "linux" {
		add = append(slices.Clone(pureGoTags), leanTags...)
	}
	for _, t := range add {
		if !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	flags := []string{"-tags=" + strings.Join(tags, ",")}
	if !ldflags {
		flags = append(flags, leanLinkFlags)
	}
	return flags
}

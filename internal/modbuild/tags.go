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

// BuildFlags returns the flags a mod's go list and go build add for the
// target goos: on Linux a -tags flag with the tags goflags (GOFLAGS) sets,
// which a -tags flag on the command line would replace, and pureGoTags.
func BuildFlags(goos, goflags string) []string {
	if goos != "linux" {
		return nil
	}
	var tags []string
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
	}
	for _, t := range pureGoTags {
		if !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	return []string{"-tags=" + strings.Join(tags, ",")}
}

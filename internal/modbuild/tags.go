package modbuild

import (
	"slices"
	"strings"
)

// pureGoTags are the build tags every mod binary is built with: the
// standard library's pure Go DNS resolver and user lookup, so that a mod
// with no cgo of its own links no C library. A statically linked mod maps
// neither libc nor the dynamic loader, about 1.3 MiB less resident memory
// per mod process, and starts without relocations. A mod with cgo of its
// own still links libc; only the resolver and user lookup stay pure Go.
var pureGoTags = []string{"netgo", "osusergo"}

// TagsFlag returns the -tags flag of a mod's go list and go build: the
// tags GOFLAGS sets, which a -tags flag on the command line would replace,
// and pureGoTags.
func TagsFlag(goflags string) string {
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
	return "-tags=" + strings.Join(tags, ",")
}

package testenv

import (
	"os"
	"strings"
)

// leanFlag drops the DWARF debug information from a link: no test reads
// it, and writing it is about a third of linking a mod.
const leanFlag = "-ldflags=-w"

// LeanLinks makes the go commands this test process and its children run
// (the mods' builds, above all) link without DWARF debug information, by
// adding -ldflags=-w to $GOFLAGS, unless $GOFLAGS sets -ldflags itself.
// What a mod does is the same; only its debugger view is gone. Call it
// from TestMain, before the tests run.
func LeanLinks() {
	os.Setenv("GOFLAGS", leanGOFLAGS(os.Getenv("GOFLAGS")))
}

// leanGOFLAGS returns goflags with leanFlag added, unless it sets -ldflags,
// one space between flags.
func leanGOFLAGS(goflags string) string {
	fields := strings.Fields(goflags)
	for _, f := range fields {
		if strings.HasPrefix(strings.TrimLeft(f, "-"), "ldflags") {
			return strings.Join(fields, " ")
		}
	}
	return strings.Join(append(fields, leanFlag), " ")
}

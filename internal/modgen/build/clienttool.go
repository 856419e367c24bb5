package build

import (
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

// runs is where t's calls run: in the client only when it is a client
// tool without Run, in either place when it has one.
func runs(t load.Tool) manifest.Runs {
	switch {
	case !t.Client:
		return manifest.RunsInMod
	case t.HasRun:
		return manifest.RunsEither
	default:
		return manifest.RunsInClient
	}
}

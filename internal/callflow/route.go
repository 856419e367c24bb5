package callflow

import "github.com/modkit/modkit/manifest"

// Where says where a call of tool runs, given where the tool runs and
// whether the environment has a client for it: in the client when it runs
// there and one is at hand, else in the mod. A tool that runs only in the
// client, with none at hand, cannot run: the ending says so and ended is
// true.
func Where(tool string, runs manifest.Runs, haveClient bool) (inClient bool, end Ending, ended bool) {
	switch {
	case runs.InClient() && haveClient:
		return true, Ending{}, false
	case !runs.InMod():
		return false, NoClient(tool), true
	}
	return false, Ending{}, false
}

package sdk

import "fmt"

// runs is where a tool's calls run, in the manifest's words: "" in the
// mod, "client" only in the client application, "either".
func runs(client, hasRun bool) string {
	switch {
	case !client:
		return ""
	case hasRun:
		return "either"
	default:
		return "client"
	}
}

// noRun is the failure of a call that reached a tool with no Run.
func noRun(tool string, client bool) error {
	if client {
		return fmt.Errorf("tool %s runs in the client application and has no handler in the mod", tool)
	}
	return fmt.Errorf("tool %s has no Run function", tool)
}

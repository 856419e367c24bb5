package main

import "github.com/modkit/modkit/manifest"

// runsMark is what list writes before the description of a tool a client
// application runs: modhost has no client, so it runs "either" tools in
// their mod and cannot call "client" tools.
func runsMark(r manifest.Runs) string {
	switch r {
	case manifest.RunsInClient:
		return "(runs in the client only) "
	case manifest.RunsEither:
		return "(runs in the client or the mod) "
	}
	return ""
}

// runsWords says where a tool runs, for inspect; "" for the mod.
func runsWords(r manifest.Runs) string {
	switch r {
	case manifest.RunsInClient:
		return "in the client application only"
	case manifest.RunsEither:
		return "in the client application when it handles the tool, else in the mod"
	}
	return ""
}

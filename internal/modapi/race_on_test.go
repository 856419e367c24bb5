//go:build race

package modapi_test

// raceEnabled reports whether the race detector is on: it adds
// allocations, so tests that count them skip.
const raceEnabled = true

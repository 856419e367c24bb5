//go:build race

package modserver_test

// raceEnabled reports whether the race detector is on: it adds
// allocations, so tests that count them skip.
const raceEnabled = true

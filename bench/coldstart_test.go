package main

import (
	"context"
	"os"
	"testing"
)

// TestColdStartsInFreshProcesses: each side of coldstart_vs_goplugin (and
// each of coldstart_confined_vs_unconfined's) starts in a process of its
// own, a new one each time, which times it and checks the answer.
func TestColdStartsInFreshProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the echo mod and the bare plugin")
	}
	e := benchEnv(t)
	ctx := context.Background()
	if _, err := e.modHost(ctx); err != nil { // builds the mod binary
		t.Fatal(err)
	}
	seen := map[int]bool{os.Getpid(): true}
	for _, cs := range []coldStart{e.coldStartJob("modkit", false), e.coldStartJob("modkit", true), e.coldStartJob("goplugin", false)} {
		for range 2 {
			d, pid, err := timeColdStart(ctx, cs)
			if err != nil {
				t.Fatal(err)
			}
			if seen[pid] || d <= 0 {
				t.Errorf("%s (unconfined %v): got process %d and %v, want a new process and a positive time", cs.Side, cs.Unconfined, pid, d)
			}
			seen[pid] = true
		}
	}
}

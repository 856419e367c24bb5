package mcpbridge

import (
	"sync"
	"testing"
	"time"
)

// TestKeptGoroutines: calls run on goroutines that wait for more once done,
// at most max of them; an idle one takes the next call; closing stop ends
// them all.
func TestKeptGoroutines(t *testing.T) {
	const max = 4
	stop := make(chan struct{})
	k := newKeptGoroutines(max, stop)
	settle := func(want int32) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); k.idle.Load() != want; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d goroutines wait, want %d", k.idle.Load(), want)
			}
		}
	}
	release := make(chan struct{})
	var ended sync.WaitGroup
	for range 3 * max {
		ended.Add(1)
		k.run(func() { <-release; ended.Done() })
	}
	close(release)
	ended.Wait()
	settle(max)

	running, proceed := make(chan struct{}), make(chan struct{})
	k.run(func() { close(running); <-proceed })
	<-running
	if got := k.idle.Load(); got != max-1 {
		t.Errorf("a call ran while %d goroutines wait, want %d: it did not go to one that waits", got, max-1)
	}
	close(proceed)
	settle(max)

	close(stop)
	done := make(chan struct{})
	go func() { k.wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("wait did not return: goroutines still wait")
	}
	settle(0)
}

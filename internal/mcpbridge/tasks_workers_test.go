package mcpbridge

import (
	"context"
	"testing"
	"time"
)

// TestGoRun: runs run on goroutines that wait for more once done, at most
// maxIdleWorkers of them; an idle one takes the next run; they end with
// the runner.
func TestGoRun(t *testing.T) {
	tr := &taskRunner{idle: make(chan func())}
	tr.ctx, tr.stop = context.WithCancel(context.Background())
	defer tr.stop()
	waitIdle := func(n int32) {
		t.Helper()
		for start := time.Now(); tr.idleWorkers.Load() != n; time.Sleep(time.Millisecond) {
			if time.Since(start) > 5*time.Second {
				t.Fatalf("%d idle workers, want %d", tr.idleWorkers.Load(), n)
			}
		}
		time.Sleep(10 * time.Millisecond) // into their wait
	}
	release := make(chan struct{})
	ran := make(chan int, 3*maxIdleWorkers)
	for i := range 3 * maxIdleWorkers {
		tr.goRun(func() { <-release; ran <- i })
	}
	close(release)
	tr.wg.Wait()
	if len(ran) != 3*maxIdleWorkers {
		t.Fatalf("%d runs ran, want %d", len(ran), 3*maxIdleWorkers)
	}
	waitIdle(maxIdleWorkers)

	block := make(chan struct{})
	tr.goRun(func() { <-block })
	waitIdle(maxIdleWorkers - 1) // an idle worker took it: no new goroutine
	close(block)
	tr.wg.Wait()
	waitIdle(maxIdleWorkers)

	tr.stop()
	waitIdle(0)
}

package mcpbridge

import (
	"sync"
	"sync/atomic"
)

// keptGoroutines runs calls on goroutines that stay, at most max of them
// idle, for the next call. A call goes deep (the host's call, the lane): a
// new goroutine would grow its stack to that depth, copying it, for every
// call; one that ran a call has grown it already.
type keptGoroutines struct {
	max  int32
	next chan func() // hands a call to an idle goroutine
	idle atomic.Int32
	// stop, when closed, ends the idle goroutines, and the others as
	// their calls end.
	stop <-chan struct{}
	wg   sync.WaitGroup // the goroutines
}

// newKeptGoroutines keeps at most max goroutines idle until stop is closed.
func newKeptGoroutines(max int32, stop <-chan struct{}) *keptGoroutines {
	return &keptGoroutines{max: max, next: make(chan func()), stop: stop}
}

// run runs f on an idle goroutine, or on a new one.
func (k *keptGoroutines) run(f func()) {
	select {
	case k.next <- f:
	default:
		k.wg.Go(func() { k.loop(f) })
	}
}

// loop runs f, then the calls run hands it while it waits, until enough
// others wait or stop is closed.
func (k *keptGoroutines) loop(f func()) {
	for {
		f()
		if k.idle.Add(1) > k.max {
			k.idle.Add(-1)
			return
		}
		select {
		case f = <-k.next:
			k.idle.Add(-1)
		case <-k.stop:
			k.idle.Add(-1)
			return
		}
	}
}

// wait waits for the goroutines to end, once stop is closed.
func (k *keptGoroutines) wait() { k.wg.Wait() }

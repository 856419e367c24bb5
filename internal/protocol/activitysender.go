package protocol

import (
	"sync"

	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// activitySender sends a call's activity updates on its stream from a
// goroutine of its own: each message carries the updates that arrived
// while the previous one was being sent. A handler that reports in a tight
// loop pays for a few messages instead of one per update, and never waits
// for the host; an update that comes alone still leaves at once.
type activitySender struct {
	send func(*pb.CallToolEvent) error

	mu      sync.Mutex
	pending []*pb.Activity
	done    chan struct{} // closed when the running sender ends; nil when none runs
}

// add queues u and starts a sender when none runs.
func (a *activitySender) add(u sdk.ActivityUpdate) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.pending = append(a.pending, ActivityToProto(u))
	if a.done == nil {
		a.done = make(chan struct{})
		go a.run(a.done)
	}
}

// run sends what is queued until nothing is.
func (a *activitySender) run(done chan struct{}) {
	defer close(done)
	for {
		a.mu.Lock()
		batch := a.pending
		a.pending = nil
		if len(batch) == 0 {
			a.done = nil
			a.mu.Unlock()
			return
		}
		a.mu.Unlock()
		ev := &pb.CallToolEvent{Event: &pb.CallToolEvent_Activities{Activities: &pb.ActivityBatch{Updates: batch}}}
		if len(batch) == 1 {
			ev = &pb.CallToolEvent{Event: &pb.CallToolEvent_Activity{Activity: batch[0]}}
		}
		// A failed send means the call is gone; the handler sees its
		// context cancelled.
		_ = a.send(ev)
	}
}

// flush returns once every update queued so far has been sent, so that
// the outcome follows them.
func (a *activitySender) flush() {
	a.mu.Lock()
	done := a.done
	a.mu.Unlock()
	if done != nil {
		<-done
	}
}

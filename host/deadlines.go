package host

import (
	"container/heap"
	"sync"
	"time"
)

// deadlines runs functions at their deadlines from one runtime timer,
// armed for the earliest. A timer armed per call (time.AfterFunc) made
// the runtime wake an idle thread at nearly every call to watch it, since
// it fired before any timer the runtime knew: a futex wake, and a thread
// switched in and out again, for a timeout that almost never fires. Here
// a call whose deadline is after the timer's touches no timer: only the
// first call after an idle spell, or one with a shorter timeout, arms it.
type deadlines struct {
	mu    sync.Mutex
	queue deadlineQueue
	timer *time.Timer
	next  time.Time // when timer fires; zero when it is not armed
}

// callDeadlines are the call timeouts of every host in the process.
var callDeadlines deadlines

// deadline is one function waiting in deadlines.
type deadline struct {
	at   time.Time
	i    int // in the queue; -1 when not there
	fire func()
}

// add runs e.fire after d, unless remove takes e out first; an e waiting
// already waits for the new deadline instead.
func (ds *deadlines) add(e *deadline, d time.Duration) {
	at := time.Now().Add(d)
	ds.mu.Lock()
	ds.take(e)
	e.at = at
	heap.Push(&ds.queue, e)
	if ds.next.IsZero() || e.at.Before(ds.next) {
		ds.next = e.at
		if ds.timer == nil {
			ds.timer = time.AfterFunc(d, ds.run)
		} else {
			ds.timer.Reset(d)
		}
	}
	ds.mu.Unlock()
}

// remove takes e out, unless it fired or was not added.
func (ds *deadlines) remove(e *deadline) {
	ds.mu.Lock()
	ds.take(e)
	ds.mu.Unlock()
}

// take takes e out of the queue, if it is there.
func (ds *deadlines) take(e *deadline) {
	if e.i >= 0 && e.i < len(ds.queue) && ds.queue[e.i] == e {
		heap.Remove(&ds.queue, e.i)
	}
}

// run fires the functions whose deadline has come, and arms the timer for
// the next deadline, if any.
func (ds *deadlines) run() {
	var due []func()
	ds.mu.Lock()
	now := time.Now()
	for len(ds.queue) > 0 && !ds.queue[0].at.After(now) {
		due = append(due, heap.Pop(&ds.queue).(*deadline).fire)
	}
	ds.next = time.Time{}
	if len(ds.queue) > 0 {
		ds.next = ds.queue[0].at
		ds.timer.Reset(ds.next.Sub(now))
	}
	ds.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// deadlineQueue is a heap of deadlines, earliest first.
type deadlineQueue []*deadline

func (q deadlineQueue) Len() int           { return len(q) }
func (q deadlineQueue) Less(i, j int) bool { return q[i].at.Before(q[j].at) }
func (q deadlineQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].i, q[j].i = i, j
}

func (q *deadlineQueue) Push(x any) {
	e := x.(*deadline)
	e.i = len(*q)
	*q = append(*q, e)
}

func (q *deadlineQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	e.i = -1
	return e
}
